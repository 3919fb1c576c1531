import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/**
 * The transport of one POST to /mcp: stateless (no session id), answered as JSON. Imported here,
 * statically, so the CLI's bundle loads the SDK's module with require(): its own dynamic import()
 * of a package outside the bundle went through vm's experimental loader, and Node printed an
 * ExperimentalWarning on the sandbox's terminal at the first MCP request.
 */
export function statelessHttpTransport(): StreamableHTTPServerTransport {
  return new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
}
