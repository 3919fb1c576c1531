import type { Command } from 'commander';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';

const run = lazyActions(() => import('./sdk.js'));

/** `crm sdk generate`. Definitions only; the code is imported when the command runs. */
export function registerSdkCommands(program: Command): void {
  const sdk = subcommand(
    program,
    'sdk',
    'The SDKs (TypeScript, Python, Go, PHP) generated from the OpenAPI document',
    examples([['crm sdk generate --lang python --out sdks/python']]),
  );
  subcommand(
    sdk,
    'generate',
    "Write an SDK's generated resources and models into DIR, beside its hand-written core",
    examples([['crm sdk generate --lang python --out sdks/python'], ['crm sdk generate --lang go --out sdks/go --check', 'in CI: exit 1 when stale']]),
  )
    .requiredOption('--lang <language>', 'typescript, python, go or php')
    .requiredOption('--out <dir>', 'the SDK folder, e.g. sdks/python')
    .option('--check', 'write nothing; exit 1 when DIR differs from a fresh generation', false)
    .action(run((m, g, opts: { lang: string; out: string; check: boolean }) => m.sdkGenerateCommand({ ...opts, json: g.json })));
}
