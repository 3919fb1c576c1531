import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ApiError } from '../../errors.js';
import { inTransaction, type Ctx } from '../../services/context.js';
import { errorResponses } from '../schema-docs.js';
import { routedTarget, surfaceOf, surfaceOfPattern } from '../route-surface.js';
import { claim, finish, fingerprint, isStoredStatus, parseIdempotencyKey, release, type Claim } from '../../services/idempotency.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { claim: Claim; settled: boolean } | null;
  }
}

const WRITES = new Set(['POST', 'PATCH', 'DELETE']);

const IdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .max(255)
    .optional()
    .describe('Makes the write safe to retry: the same key and request replay the stored response for 24 h (1..255 visible ASCII).'),
});

/**
 * Idempotency-Key on every write under /v1 (API.md §4). The key is checked after authentication
 * and body parsing but before validation, so a stored 422 replays too. Handlers answer through
 * `respond`, which commits the write, its events and the stored response in one transaction.
 */
export function registerIdempotency(app: FastifyInstance, ctx: Ctx): void {
  app.decorateRequest('idempotency', null);

  // Every write documents the header and the two errors it can cause, from this one place.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (surfaceOfPattern(route.url) !== 'api' || !methods.some((m) => WRITES.has(m)) || !route.schema) return;
    route.schema.headers ??= IdempotencyHeaders;
    const documented = errorResponses('idempotency_key_in_use', 'idempotency_key_reused', 'invalid_request');
    route.schema.response = { ...documented, ...(route.schema.response as object) };
  });

  app.addHook('preValidation', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !WRITES.has(request.method) || surfaceOf(request) !== 'api') return;
    const key = parseIdempotencyKey(Array.isArray(header) ? header.join(',') : header);
    const print = fingerprint(request.method, routedTarget(request), request.body === undefined ? '' : JSON.stringify(request.body));
    const outcome = claim(ctx, key, print);
    if ('replay' in outcome) {
      const { status, body } = outcome.replay;
      const type = status >= 400 ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8';
      return reply.code(status).header('idempotent-replayed', 'true').type(type).send(body);
    }
    request.idempotency = { claim: outcome.claim, settled: false };
  });

  // Whatever happened, a claim is never left running once the response is out.
  app.addHook('onResponse', async (request) => {
    if (request.idempotency && !request.idempotency.settled) release(ctx, request.idempotency.claim);
  });
}

/** Called by the error handler: stores a 4xx for replay, or gives the claim up so a retry runs. */
export function settleFailure(ctx: Ctx, request: FastifyRequest, error: ApiError, body: unknown): void {
  const idem = request.idempotency;
  if (!idem || idem.settled) return;
  idem.settled = true;
  if (isStoredStatus(error.status)) finish(ctx, idem.claim, error.status, JSON.stringify(body));
  else release(ctx, idem.claim);
}

/**
 * Answers a write: runs it and, when the request carries an Idempotency-Key, stores the response
 * in the same transaction as the write and its events.
 */
export function respond(ctx: Ctx, request: FastifyRequest, reply: FastifyReply, status: number, run: () => unknown): FastifyReply {
  const idem = request.idempotency;
  if (!idem) return reply.code(status).send(run());
  const text = inTransaction(ctx, () => {
    const result = run();
    const body = JSON.stringify(result);
    const stored = withoutSecrets(result);
    finish(ctx, idem.claim, status, stored === result ? body : JSON.stringify(stored)); // a bulk result: serialised once
    return body;
  });
  idem.settled = true;
  return reply.code(status).type('application/json; charset=utf-8').send(text);
}

/** Fields that hold a secret shown once (API keys, OAuth client secrets, webhook signing secrets). */
const SECRET_FIELDS = ['secret', 'client_secret'];
export const REDACTED = 'redacted: a secret is shown only in the first response, never in a replay';

/**
 * The copy kept for replays never holds a secret: the database stores keys only as hashes, and
 * the idempotency table must not become a second, plain-text copy. A replay says so instead.
 */
function withoutSecrets(result: unknown): unknown {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  if (!SECRET_FIELDS.some((field) => typeof (result as Record<string, unknown>)[field] === 'string')) return result;
  const copy: Record<string, unknown> = { ...result };
  for (const field of SECRET_FIELDS) if (typeof copy[field] === 'string') copy[field] = REDACTED;
  return copy;
}
