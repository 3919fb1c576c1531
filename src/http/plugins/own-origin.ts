import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.js';
import type { Ctx } from '../../services/context.js';
import { isOwnHost, isOwnOrigin } from '../dashboard/origin.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers only under the sandbox's own Host, and to a browser only from the
     * sandbox's own origin (docs/security.md#one-rule-for-every-access-decision); clients that are not browsers send no Origin and pass.
     */
    ownOrigin?: boolean;
  }
}

/**
 * DNS rebinding and cross-site pages, for the routes that declare `ownOrigin` (/mcp): the MCP
 * Streamable HTTP transport requires servers to validate Origin, or any web page the user opens
 * could drive the tools of a local server. A foreign Host is 421, as on /dashboard; an Origin
 * other than the sandbox's own (`null` included) is 403, the status the MCP spec names. Decided on
 * the matched route, before authentication, so the answer is the same whatever the credentials.
 *
 * Not the MCP SDK's own allowedHosts/allowedOrigins: deprecated (1.x) in favour of middleware,
 * they answer 403 with a JSON-RPC body to both, compare exact strings, and would run only after
 * authentication and the SDK's lazy load.
 */
export function registerOwnOriginGuard(app: FastifyInstance, ctx: Ctx): void {
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config?.ownOrigin) return;
    if (!isOwnHost(ctx, request)) {
      throw new ApiError(
        'misdirected_request',
        'This sandbox answers only to its own address, localhost, 127.0.0.1 or [::1] with its port (DNS rebinding protection).',
      );
    }
    if (request.headers.origin !== undefined && !isOwnOrigin(ctx, request)) {
      throw new ApiError(
        'forbidden_origin',
        `Requests from web pages are accepted only from the sandbox's own origin (http://${request.headers.host}), not from ${request.headers.origin}.`,
      );
    }
  });
}
