import type { FastifyRequest } from 'fastify';

/**
 * Which part of the sandbox a request reached, decided on the route Fastify matched, never on the
 * raw URL. The router percent-decodes paths, so `/%5Fsandbox/accounts` runs the handler of
 * `/_sandbox/accounts` and `/%761/leads` that of `/v1/leads`: a check that compared `request.url`
 * with a prefix let those through with no admin check, rate limit, request log or Host check
 * (docs/security.md#one-rule-for-every-access-decision). Every hook that asks "is this the API? the sandbox controls? the dashboard?" asks
 * here, so an encoded path meets exactly the checks of its plain form.
 *
 * - `api`: the REST API under /v1 (rate limits, usage, idempotency, the request log)
 * - `sandbox`: /_sandbox/* (the default account's admin key alone; own Host only)
 * - `dashboard`: / and /dashboard* (the dashboard's headers; own Host only)
 * - `docs`: /docs* (the dashboard's headers)
 * - `other`: every other route (/healthz, /oauth/*, /pay/*, /mcp, /v1/openapi.json…)
 * - `unmatched`: no route: answered 404/405 before its body is read
 */
export type Surface = 'api' | 'sandbox' | 'dashboard' | 'docs' | 'other' | 'unmatched';

/** The surface of a route pattern as registered (`/v1/leads/:id`, `/dashboard/*`). */
export function surfaceOfPattern(pattern: string): Surface {
  if (pattern === '/v1/openapi.json') return 'other'; // a public document, not an API call
  if (pattern.startsWith('/v1/')) return 'api';
  if (pattern.startsWith('/_sandbox/')) return 'sandbox';
  if (pattern === '/' || pattern === '/dashboard' || pattern.startsWith('/dashboard/')) return 'dashboard';
  if (pattern === '/docs' || pattern.startsWith('/docs/')) return 'docs';
  return 'other';
}

const surfaces = new Map<string, Surface>();

export function surfaceOf(request: FastifyRequest): Surface {
  const pattern = request.routeOptions.url;
  if (pattern === undefined || request.is404) return 'unmatched';
  let surface = surfaces.get(pattern);
  if (surface === undefined) surfaces.set(pattern, (surface = surfaceOfPattern(pattern)));
  return surface;
}

/**
 * The path as the router saw it (percent-decoded, but for the characters decoding would change the
 * meaning of: `/`, `?`, `#`, `%`), for matching user-given prefixes such as a fault rule's. The
 * query string is not part of it (routedTarget adds it).
 */
export function routedPath(request: FastifyRequest): string {
  const raw = request.url.split('?', 1)[0] ?? '';
  try {
    return decodeURI(raw);
  } catch {
    return raw; // a malformed escape: the router answered 400/404 for it anyway
  }
}

/**
 * The routed path and the query as sent, for a fault rule's prefix (which may name a query) and
 * an idempotency fingerprint: /%761/leads?x=1 and /v1/leads?x=1 are one request.
 */
export function routedTarget(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query === -1 ? routedPath(request) : routedPath(request) + request.url.slice(query);
}

/**
 * Whether a path has a dot segment (`.` or `..`, plain or percent-encoded). The router does not
 * resolve them, so such a path is not the canonical spelling of any route; a wildcard route
 * (`/dashboard/*`) would still match `/dashboard/../v1/leads`. Answered 404 like any unknown path.
 */
export function hasDotSegment(request: FastifyRequest): boolean {
  const raw = request.url.split('?', 1)[0] ?? '';
  return /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(raw);
}
