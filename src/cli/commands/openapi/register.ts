import type { Command } from 'commander';
import type { GlobalOptions } from '../../api.js';
import { examples } from '../../help.js';

/** `crm openapi`. Definitions only; the code is imported when the command runs. */
export function registerOpenapiCommand(program: Command): void {
  program
    .command('openapi')
    .description('Print the OpenAPI 3.1 document (the same as GET /v1/openapi.json)')
    .addHelpText('after', examples([['crm openapi > openapi.json']]))
    .action(async (_opts: unknown, cmd: Command) => {
      const { openapiCommand } = await import('./openapi.js');
      await openapiCommand(cmd.optsWithGlobals<GlobalOptions>());
    });
}
