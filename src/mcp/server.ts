import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpBackend } from './backend.js';
import { crmTools, TOOL_INSTRUCTIONS } from './catalog.js';
import { callTool } from './tool-kit.js';

/**
 * The MCP server: the CRM's tools over any backend (the typed client, or the sandbox's own app).
 * `scopes`, when the caller's are known, lists only the tools it may call.
 */
export function createMcpServer(api: McpBackend, version: string, scopes?: readonly string[]): McpServer {
  const server = new McpServer({ name: 'crm', title: 'CRM', version }, { instructions: TOOL_INSTRUCTIONS });
  for (const tool of crmTools(api, scopes)) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, ...tool.annotations, openWorldHint: false },
      },
      ((args: Record<string, unknown>) => callTool(tool, args)) as never,
    );
  }
  return server;
}
