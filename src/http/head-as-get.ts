import type { IncomingMessage } from 'node:http';

/**
 * HEAD answered by the GET route of the same path (RFC 9110 §9.3.2: the same header fields as a GET,
 * no content), without a second route for every GET. Fastify's `exposeHeadRoutes` registers one
 * (~150 more routes to build: a sandbox's app took 62 ms to build with them, 48 ms without, stamped
 * in docs/benchmarks.md); here the request is routed as a GET instead. Node made its
 * response knowing it answers a HEAD (`ServerResponse` drops the body of a HEAD, keeping
 * Content-Length), so the GET's handler, hooks and access rules run as they do for a GET — what
 * Fastify's HEAD routes did too — and no body goes out. Called by Fastify's `rewriteUrl`, before
 * routing; `askedMethod` keeps the method the client sent (the request log, event streams).
 */
export function routeHeadAsGet(request: IncomingMessage): string {
  if (request.method === 'HEAD') {
    request.method = 'GET';
    (request as HeadAware)[ASKED_HEAD] = true;
  }
  return request.url ?? '/';
}

/** The method the client sent: HEAD for one routed as a GET. */
export function askedMethod(request: IncomingMessage): string {
  return (request as HeadAware)[ASKED_HEAD] ? 'HEAD' : (request.method ?? 'GET');
}

const ASKED_HEAD = Symbol('askedHead');
type HeadAware = IncomingMessage & { [ASKED_HEAD]?: true };
