import type { Command } from 'commander';
import type { GlobalOptions } from '../../api.js';
import { examples } from '../../help.js';

/** `crm usage`. Definitions only; the code is imported when the command runs. */
export function registerUsageCommand(program: Command): void {
  program
    .command('usage')
    .description("Today's requests by key, endpoint and status, the quota, and the request rate")
    .addHelpText('after', examples([['crm usage'], ['crm usage --watch', 'redraw every second']]))
    .option('--watch', 'refresh every second (in place on a terminal)', false)
    .action(async (opts: { watch: boolean }, cmd: Command) => {
      const { usageCommand } = await import('./usage.js');
      await usageCommand({ ...cmd.optsWithGlobals<GlobalOptions>(), watch: opts.watch });
    });
}
