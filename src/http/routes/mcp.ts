import type { FastifyInstance } from 'fastify';
import { VERSION } from '../../version.js';
import { ANY_SCOPE } from '../plugins/auth.js';

/**
 * MCP over Streamable HTTP at /mcp, stateless: every POST gets a fresh server whose tools call the
 * REST API inside this app with the caller's own Authorization header, so each tool call is
 * checked against the caller's scopes exactly as the equivalent REST call would be.
 */
export function mcpRoutes(app: FastifyInstance): void {
  // ownOrigin: a web page (DNS rebinding, any other site) must not drive the tools (plugins/own-origin.ts).
  app.post('/mcp', { config: { scope: ANY_SCOPE, ownOrigin: true }, schema: { hide: true } }, async (request, reply) => {
    // Loaded on first use: the MCP SDK is big, and most sandbox runs never need it at start.
    const [{ statelessHttpTransport }, { injectBackend }, { createMcpServer }] = await Promise.all([
      import('../../mcp/http-transport.js'),
      import('../../mcp/backend.js'),
      import('../../mcp/server.js'),
    ]);
    const server = createMcpServer(injectBackend(app, { authorization: request.headers.authorization! }), VERSION, request.principal?.scopes);
    const transport = statelessHttpTransport();
    reply.hijack();
    reply.raw.setHeader('x-request-id', String(request.id));
    reply.raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config: { scope: ANY_SCOPE, ownOrigin: true },
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages.' }, id: null }),
    });
  }
}
