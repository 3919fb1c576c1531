import type { Command } from 'commander';
import type { GlobalOptions } from '../../api.js';
import { examples } from '../../help.js';

/** `crm sdk generate`. Definitions only; the code is imported when the command runs. */
export function registerSdkCommands(program: Command): void {
  program
    .command('sdk')
    .description('The SDKs (TypeScript, Python, Go, PHP) generated from the OpenAPI document')
    .addHelpText('after', examples([['crm sdk generate --lang python --out sdks/python']]))
    .command('generate')
    .description("Write an SDK's generated resources and models into DIR, beside its hand-written core")
    .requiredOption('--lang <language>', 'typescript, python, go or php')
    .requiredOption('--out <dir>', 'the SDK folder, e.g. sdks/python')
    .option('--check', 'write nothing; exit 1 when DIR differs from a fresh generation', false)
    .addHelpText(
      'after',
      examples([['crm sdk generate --lang python --out sdks/python'], ['crm sdk generate --lang go --out sdks/go --check', 'in CI: exit 1 when stale']]),
    )
    .action(async (opts: { lang: string; out: string; check: boolean }, cmd: Command) => {
      const { sdkGenerateCommand } = await import('./sdk.js');
      await sdkGenerateCommand({ ...opts, json: cmd.optsWithGlobals<GlobalOptions>().json });
    });
}
