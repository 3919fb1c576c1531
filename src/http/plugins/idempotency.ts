import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ApiError } from '../../errors.js';
import type { Ctx } from '../../services/context.js';
import { inTransaction } from '../../services/transactions.js';
import { errorResponses } from '../schema-docs.js';
import { routedTarget, surfaceOf, surfaceOfPattern, type Surface } from '../route-surface.js';
import { isDeepStrictEqual } from 'node:util';
import { claim, finish, fingerprint, isStoredStatus, parseIdempotencyKey, release, type Claim, type Replay } from '../../services/idempotency.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { claim: Claim; settled: boolean } | null;
    /** The stored response of the same request, sent once every access check has passed. */
    pendingReplay: Replay | null;
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

/** The errors every write can answer for its Idempotency-Key, documented once for all of them. */
const IDEMPOTENCY_ERRORS: Record<string, unknown> = errorResponses('idempotency_key_in_use', 'idempotency_key_reused', 'invalid_request');

/**
 * Where a key lives. The /v1 writes of an account share its keys (docs/reference/limits.md#idempotency). The sandbox controls
 * (/_sandbox/*, the default account's admin key) have keys of their own, kept in the same table
 * under a prefix no key can contain (a space): one key sent to /v1/leads and to /_sandbox/accounts
 * names two requests, not one reused key.
 */
const SCOPES: Partial<Record<Surface, string>> = { api: '', sandbox: 'sandbox ' };

/**
 * Idempotency-Key on every write under /v1 and /_sandbox. The key is claimed after authentication
 * and body parsing but before validation, so a stored 422 replays too. A stored response is sent
 * only after every access check (scopes, then the route's `authorize`): a key that could not make
 * the request itself never gets another key's result by sending its Idempotency-Key. /v1 handlers
 * answer through `respond`, which commits the write, its events and the stored response in one
 * transaction; a sandbox control's response is stored as it is sent (its writes are to other
 * databases, or to the process: faults).
 */
export function registerIdempotency(app: FastifyInstance, ctx: Ctx): void {
  app.decorateRequest('idempotency', null);
  app.decorateRequest('pendingReplay', null);

  // Every write documents the header and the errors it can cause, from this one place; a status
  // the route documents too keeps both lists of codes.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (SCOPES[surfaceOfPattern(route.url)] === undefined || !methods.some((m) => WRITES.has(m)) || !route.schema) return;
    route.schema.headers ??= IdempotencyHeaders;
    route.schema.response = mergeErrorResponses(IDEMPOTENCY_ERRORS, (route.schema.response ?? {}) as Record<string, unknown>);
  });

  app.addHook('preValidation', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    const scope = SCOPES[surfaceOf(request)];
    if (header === undefined || !WRITES.has(request.method) || scope === undefined) return;
    const key = scope + parseIdempotencyKey(Array.isArray(header) ? header.join(',') : header);
    const print = fingerprint(request.method, routedTarget(request), request.body);
    const outcome = claim(ctx, key, print);
    if ('replay' in outcome) request.pendingReplay = outcome.replay;
    else request.idempotency = { claim: outcome.claim, settled: false };
  });

  // After auth's preHandler (the route's `authorize`), before faults and the route's own
  // preHandlers (plan limits such as a full webhook quota, which a replay must not meet again).
  app.addHook('preHandler', async (request, reply) => {
    if (request.pendingReplay) return sendReplay(reply, request.pendingReplay);
  });

  // A sandbox control answers like any handler; its success is stored here, as it goes out.
  app.addHook('onSend', async (request, reply, payload) => {
    const idem = request.idempotency;
    if (!idem || idem.settled || surfaceOf(request) !== 'sandbox' || reply.statusCode >= 300 || typeof payload !== 'string') return payload;
    idem.settled = true;
    const result: unknown = JSON.parse(payload);
    const stored = withoutSecrets(result, SANDBOX_SECRET_FIELDS);
    finish(ctx, idem.claim, reply.statusCode, stored === result ? payload : JSON.stringify(stored));
    return payload;
  });

  // Whatever happened, a claim is never left running once the response is out.
  app.addHook('onResponse', async (request) => {
    if (request.idempotency && !request.idempotency.settled) release(ctx, request.idempotency.claim);
  });
}

/** Two sets of documented responses in one: where both have a status, its codes are listed once each. */
function mergeErrorResponses(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a, ...b };
  for (const status of Object.keys(a)) {
    const first = a[status] as { description?: string };
    const second = b[status] as { description?: string } | undefined;
    if (!second || typeof second.description !== 'string' || typeof first.description !== 'string' || !second.description.startsWith('`')) continue;
    const codes = [...new Set([...second.description.split(', '), ...first.description.split(', ')])];
    out[status] = { ...second, description: codes.join(', ') };
  }
  return out;
}

function sendReplay(reply: FastifyReply, { status, body }: Replay): FastifyReply {
  const type = status >= 400 ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8';
  return reply.code(status).header('idempotent-replayed', 'true').type(type).send(body);
}

/**
 * Called by the error handler: stores a 4xx for replay, or gives the claim up so a retry runs.
 * A request with a stored response that failed before its replay (validation, an access check)
 * gets the replay only when the stored response is this very failure — a stored 422 for the body
 * it sent again — so nothing but what the failure says is answered: returns the reply then.
 */
export function settleFailure(ctx: Ctx, request: FastifyRequest, reply: FastifyReply, error: ApiError, body: { request_id: string }): FastifyReply | undefined {
  const pending = request.pendingReplay;
  if (pending) return isSameFailure(pending, error, body) ? sendReplay(reply, pending) : undefined;
  const idem = request.idempotency;
  if (!idem || idem.settled) return;
  idem.settled = true;
  if (isStoredStatus(error.status)) finish(ctx, idem.claim, error.status, JSON.stringify(body));
  else release(ctx, idem.claim);
  return undefined;
}

/** Whether a stored response says exactly what a fresh failure says, its request id aside. */
function isSameFailure(stored: Replay, error: ApiError, fresh: { request_id: string }): boolean {
  if (stored.status !== error.status) return false;
  const { request_id: _storedId, ...storedProblem } = JSON.parse(stored.body) as { request_id?: string };
  const { request_id: _freshId, ...freshProblem } = fresh;
  return isDeepStrictEqual(storedProblem, freshProblem);
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
/** The same on the sandbox controls: a new account's admin key, a dashboard sign-in link and its token. */
const SANDBOX_SECRET_FIELDS = ['api_key', 'token', 'url'];
const REDACTED = 'redacted: a secret is shown only in the first response, never in a replay';

/**
 * The copy kept for replays never holds a secret: the database stores keys only as hashes, and
 * the idempotency table must not become a second, plain-text copy. A replay says so instead.
 */
function withoutSecrets(result: unknown, fields = SECRET_FIELDS): unknown {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  if (!fields.some((field) => typeof (result as Record<string, unknown>)[field] === 'string')) return result;
  const copy: Record<string, unknown> = { ...result };
  for (const field of fields) if (typeof copy[field] === 'string') copy[field] = REDACTED;
  return copy;
}
