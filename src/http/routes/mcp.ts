import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toApiError } from '../plugins/errors.js';
import { VERSION } from '../../version.js';
import { ANY_SCOPE } from '../plugins/auth.js';

/**
 * MCP over Streamable HTTP at /mcp, stateless: every POST gets a fresh server whose tools call the
 * REST API inside this app with the caller's own Authorization header, so each tool call is
 * checked against the caller's scopes exactly as the equivalent REST call would be.
 */
export function mcpRoutes(app: FastifyInstance): void {
  // ownOrigin: a web page (DNS rebinding, any other site) must not drive the tools (plugins/own-origin.ts).
  // protectedResource: its 401 says where MCP clients find how to sign in (plugins/auth.ts).
  const config = { scope: ANY_SCOPE, ownOrigin: true, protectedResource: true };
  app.post('/mcp', { config, schema: { hide: true }, errorHandler: jsonRpcParseError }, async (request, reply) => {
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
      config,
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages.' }, id: null }),
    });
  }
}

/**
 * A body the JSON parser refused (json-body.ts: not JSON, or nested too deep) is a JSON-RPC parse
 * error on /mcp, as MCP clients expect: -32700 with id null, HTTP 400. The route's own handler, so
 * the decision follows the matched route (/%6Dcp too); every other failure of /mcp (401, 403, 413,
 * 415) and every other route keep their problem+json.
 */
async function jsonRpcParseError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  if (request.refusedBody === undefined) throw error;
  return reply
    .code(400)
    .type('application/json')
    .send({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${toApiError(error).message}` }, id: null });
}
