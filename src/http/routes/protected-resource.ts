import type { FastifyInstance } from 'fastify';
import { SCOPES } from '../../schemas/api-key.js';
import type { Ctx } from '../../services/context.js';
import { requestBase } from '../oauth-resource.js';

/**
 * OAuth protected resource metadata (RFC 9728), which MCP clients read to find where to sign in
 * (docs/mcp.md#signing-in-with-oauth): the one for /mcp, named by its 401's `resource_metadata`,
 * and the one for the sandbox as a whole at the well-known address without a path.
 */
export function protectedResourceRoutes(app: FastifyInstance, ctx: Ctx): void {
  for (const path of ['', '/mcp']) {
    app.get(`/.well-known/oauth-protected-resource${path}`, { schema: { hide: true } }, async (request, reply) => {
      const base = requestBase(ctx, request);
      return reply.header('cache-control', 'no-store').send({
        resource: `${base}${path}`,
        // The authorization server's issuer is the sandbox's own address (its RFC 8414 metadata says so).
        authorization_servers: [ctx.baseUrl()],
        scopes_supported: [...SCOPES],
        bearer_methods_supported: ['header'],
        resource_name: path === '/mcp' ? 'crm sandbox MCP server' : 'crm sandbox API',
        resource_documentation: `${base}/docs`,
      });
    });
  }
}
