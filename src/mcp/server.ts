import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpBackend } from './backend.js';
import { clientTools } from './tools/clients.js';
import { dealTools } from './tools/deals.js';
import { eventTools } from './tools/events.js';
import { invoiceTools } from './tools/invoices.js';
import { leadTools } from './tools/leads.js';

/** The MCP server: the same tools over any backend (the typed client, or the sandbox's own app). */
export function createMcpServer(api: McpBackend, version: string): McpServer {
  const server = new McpServer(
    { name: 'crm', title: 'CRM', version },
    {
      instructions:
        'Tools for a CRM: clients with contact persons, leads, deals in a pipeline, invoices and events. ' +
        'Search before creating to avoid duplicates. Writes accept an idempotency_key: reuse it when retrying. ' +
        'Money values are in major units of the currency.',
    },
  );
  clientTools(server, api);
  leadTools(server, api);
  dealTools(server, api);
  invoiceTools(server, api);
  eventTools(server, api);
  return server;
}
