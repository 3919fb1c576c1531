import type { Command } from 'commander';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';

const run = lazyActions(() => import('./openapi.js'));

/** `crm openapi`. Definitions only; the code is imported when the command runs. */
export function registerOpenapiCommand(program: Command): void {
  subcommand(program, 'openapi', 'Print the OpenAPI 3.1 document (the same as GET /v1/openapi.json)', examples([['crm openapi > openapi.json']])).action(
    run((m, g) => m.openapiCommand(g)),
  );
}
