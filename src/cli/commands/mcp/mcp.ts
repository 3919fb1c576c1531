import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { clientBackend } from '../../../mcp/backend.js';
import { createMcpServer } from '../../../mcp/server.js';
import { VERSION } from '../../../version.js';
import type { CrmClient } from '../../../client/client.js';
import { clientFor, type GlobalOptions } from '../../api.js';

/**
 * `crm mcp`: the MCP server over stdio, against any --base-url. stdout carries the protocol and
 * nothing else; the only other output is on stderr.
 */
export async function mcpCommand(options: GlobalOptions): Promise<void> {
  const client = clientFor(options);
  const server = createMcpServer(clientBackend(client), VERSION, await scopesOf(client));
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

/**
 * The key's scopes, so the tools it cannot call are not listed (as over /mcp). A server that does
 * not say them (or cannot be reached yet) gets every tool; each call is checked there anyway.
 */
async function scopesOf(client: CrmClient): Promise<readonly string[] | undefined> {
  const lookup = client
    .request<{ credential?: { scopes?: string[] } }>('GET', '/v1/account')
    .then((account) => account.credential?.scopes)
    .catch(() => undefined);
  // The MCP client waits for the server to start: a server that is down costs 2 s, not its retries.
  const giveUp = new Promise<undefined>((resolve) => setTimeout(resolve, SCOPE_LOOKUP_MS, undefined).unref());
  return Promise.race([lookup, giveUp]);
}

const SCOPE_LOOKUP_MS = 2000;
