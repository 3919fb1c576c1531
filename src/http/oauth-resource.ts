import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../services/context.js';
import { OAuthError } from '../services/oauth-apps.js';
import { isOwnHost, namesThisSandbox } from './dashboard/origin.js';

/**
 * The sandbox as an OAuth protected resource (RFC 9728, RFC 8707) for MCP clients
 * (docs/mcp.md#signing-in-with-oauth): the address a client reached it at, and which `resource`
 * values name it.
 */

/**
 * The base URL as the client used it: http://<Host> when the Host is one the sandbox answers to
 * (a client that connected to localhost must find a resource on localhost, or the MCP SDK refuses
 * the metadata), else the sandbox's own address. Never an arbitrary Host echoed back.
 */
export function requestBase(ctx: Ctx, request: FastifyRequest): string {
  return isOwnHost(ctx, request) ? `http://${request.headers.host!.toLowerCase()}` : ctx.baseUrl();
}

/** Where the metadata of the resource at `path` (a route pattern: '/mcp', or '' for the whole sandbox) is served. */
export const resourceMetadataUrl = (ctx: Ctx, request: FastifyRequest, path: string): string =>
  `${requestBase(ctx, request)}/.well-known/oauth-protected-resource${path}`;

/** The resources the sandbox's tokens are for: the MCP endpoint and the sandbox itself (the REST API). */
const RESOURCE_PATHS = new Set(['/', '/mcp', '/mcp/']);

/**
 * Refuses (invalid_target, RFC 8707 §2) a `resource` that is not this sandbox or its /mcp: a token
 * asked for another server must not be minted here, where the client would then send it on.
 * Absent is fine: a client that does not know RFC 8707 gets a token for this sandbox, as before.
 */
export function requireOwnResource(ctx: Ctx, request: FastifyRequest, resource: string | undefined): void {
  if (resource === undefined) return;
  let url: URL | undefined;
  try {
    url = new URL(resource);
  } catch {
    url = undefined;
  }
  const own =
    url !== undefined &&
    url.protocol === 'http:' &&
    !resource.includes('#') &&
    url.search === '' &&
    url.username === '' &&
    url.password === '' &&
    namesThisSandbox(ctx, request, url.host) &&
    RESOURCE_PATHS.has(url.pathname);
  if (!own) {
    throw new OAuthError(
      'invalid_target',
      `The resource '${resource.slice(0, 200)}' is not this server: tokens here are for ${requestBase(ctx, request)}/mcp (or ${requestBase(ctx, request)}).`,
    );
  }
}
