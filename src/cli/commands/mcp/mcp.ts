import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { clientBackend } from '../../../mcp/backend.js';
import { createMcpServer } from '../../../mcp/server.js';
import { VERSION } from '../../../version.js';
import { clientFor, type GlobalOptions } from '../../api.js';

/**
 * `crm mcp`: the MCP server over stdio, against any --base-url. stdout carries the protocol and
 * nothing else; the only other output is on stderr.
 */
export async function mcpCommand(options: GlobalOptions): Promise<void> {
  const client = clientFor(options);
  const server = createMcpServer(clientBackend(client), VERSION);
  const transport = new StdioServerTransport();
  // The client closes stdin, or the user presses Ctrl+C (SIGINT/SIGTERM): either way, exit 0.
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.connect(transport);
  process.stderr.write(`crm MCP server on stdio, talking to ${options.baseUrl}\n`);
  await closed;
  await server.close();
  await client.close();
}
