import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Ctx } from '../../services/context.js';
import { askedMethod } from '../head-as-get.js';
import { bodyForLog } from '../json-body.js';
import { routedPath, surfaceOf } from '../route-surface.js';
import { logBody, type RequestLogWriter } from '../../services/request-log.js';
import { redactQuery } from '../../services/redact.js';
import { requestSource } from '../request-source.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** A write's response body, kept by onSend for the request log. */
    loggedResponse?: unknown;
    /**
     * A write's request body as the log keeps it (redacted, cut), made before validation replaces
     * `body` with its output (defaults added, a bulk call's records wrapped in their outcome).
     */
    loggedRequestBody?: string | null;
  }
}

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const isLogged = (request: FastifyRequest) => surfaceOf(request) === 'api';

/**
 * Records every /v1 request in the request log (docs/dashboard.md#the-request-log) once its response is sent: for
 * writes with both bodies (redacted, 64 KB at most). A failure to log never fails the request.
 */
export function registerRequestLog(app: FastifyInstance, ctx: Ctx, currentWriter: () => RequestLogWriter): void {
  // The body as sent, copied before validation replaces it; a copy (cut at 64 KB) rather than the
  // parsed tree kept until the response, which would hold a bulk body through its whole write.
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      if (WRITES.has(request.method) && isLogged(request) && request.ownAccount) request.loggedRequestBody = logBody(request.body, request.bodyText);
    } catch {
      // never fails the request: onResponse tries again from what is left, inside its own catch
    }
    request.bodyText = undefined; // a bulk body's text is ~300 KB: not kept through its write
    done();
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    if (WRITES.has(request.method) && isLogged(request) && typeof payload === 'string') request.loggedResponse = payload;
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    if (!isLogged(request) || !request.ownAccount) return;
    // The path as routed (decoded): a filter on /v1/leads finds /%761/leads too.
    const path = routedPath(request);
    const query = request.url.split(/\?(.*)/s)[1];
    const write = WRITES.has(request.method);
    const key = request.headers['idempotency-key'];
    try {
      currentWriter().record({
        id: String(request.id),
        method: askedMethod(request.raw),
        path: path.slice(0, 2000),
        query: query ? redactQuery(query).slice(0, 10_000) : null, // redacted before the cut, so no secret is cut out of recognition
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime),
        key_id: request.principal?.subject ?? null,
        idempotency_key: typeof key === 'string' ? key.slice(0, 300) : null,
        idempotent_replayed: reply.getHeader('idempotent-replayed') === 'true',
        source: requestSource(request),
        request_body: write ? (request.loggedRequestBody !== undefined ? request.loggedRequestBody : logBody(bodyForLog(request))) : null,
        response_body: write ? logBody(request.loggedResponse) : null,
        created_at: new Date(ctx.clock()).toISOString(),
      });
    } catch (error) {
      request.log.error({ err: error }, 'could not write the request log');
    }
  });
}
