import type { Command } from 'commander';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';

const run = lazyActions(() => import('./mcp.js'));

/** `crm mcp`. Definitions only; the code is imported when the command runs. */
export function registerMcpCommand(program: Command): void {
  subcommand(
    program,
    'mcp',
    'Run the MCP server over stdio against --base-url (for AI assistants)',
    `
Configure your assistant to run it, for example:
  {"mcpServers": {"crm": {"command": "npx", "args": ["-y", "crm-sandbox", "mcp"],
    "env": {"CRM_BASE_URL": "http://127.0.0.1:4010", "CRM_API_KEY": "crm_test_…"}}}}
Only the protocol is written to stdout; messages go to stderr.
${examples([['crm mcp', 'in the folder of a running sandbox'], ['crm mcp --base-url http://127.0.0.1:4010 --api-key crm_test_…']])}`,
  ).action(run((m, g) => m.mcpCommand(g)));
}
