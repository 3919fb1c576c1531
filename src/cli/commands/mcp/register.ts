import type { Command } from 'commander';
import type { GlobalOptions } from '../../api.js';
import { examples } from '../../help.js';

/** `crm mcp`. Definitions only; the code is imported when the command runs. */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Run the MCP server over stdio against --base-url (for AI assistants)')
    .addHelpText(
      'after',
      `
Configure your assistant to run it, for example:
  {"mcpServers": {"crm": {"command": "npx", "args": ["-y", "crm-sandbox", "mcp"],
    "env": {"CRM_BASE_URL": "http://127.0.0.1:4010", "CRM_API_KEY": "crm_test_…"}}}}
Only the protocol is written to stdout; messages go to stderr.
${examples([['crm mcp', 'in the folder of a running sandbox'], ['crm mcp --base-url http://127.0.0.1:4010 --api-key crm_test_…']])}`,
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const { mcpCommand } = await import('./mcp.js');
      await mcpCommand(cmd.optsWithGlobals<GlobalOptions>());
    });
}
