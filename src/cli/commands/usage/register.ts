import type { Command } from 'commander';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';

const run = lazyActions(() => import('./usage.js'));

/** `crm usage`. Definitions only; the code is imported when the command runs. */
export function registerUsageCommand(program: Command): void {
  subcommand(
    program,
    'usage',
    "Today's requests by key, endpoint and status, the quota, and the request rate",
    examples([['crm usage'], ['crm usage --watch', 'redraw every second']]),
  )
    .option('--watch', 'refresh every second (in place on a terminal)', false)
    .action(run((m, g, opts: { watch: boolean }) => m.usageCommand({ ...g, watch: opts.watch })));
}
