import { createHash, randomUUID } from 'node:crypto';
import { ApiError } from '../errors.js';
import { stmt } from '../store/rows.js';
import { nowIso, type Ctx } from './context.js';

/**
 * Idempotency keys (API.md §4), after Stripe and draft-ietf-httpapi-idempotency-key-header.
 * A write with a key first claims it ('running'); the write, its events and the stored response
 * then commit in one transaction (finish). A retry with the same request replays that response;
 * with another request it is refused; while the first still runs it gets 409. A claim left by a
 * process that died is taken over, so a crash never blocks a key for a day.
 */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
const OWNER = randomUUID(); // this process

export interface Claim {
  key: string;
  fingerprint: string;
}

export type Replay = { status: number; body: string };

export function fingerprint(method: string, path: string, body: Buffer | string | undefined): string {
  const bodyHash = createHash('sha256').update(body ?? '').digest('hex');
  return createHash('sha256').update(`${method}\n${path}\n${bodyHash}`).digest('hex');
}

/** The header's value: 1..255 visible ASCII, bare or as a structured-field string ("…"). */
export function parseIdempotencyKey(header: string): string {
  const quoted = /^"(.*)"$/.exec(header);
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : header;
  if (key.length < 1 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', {
      errors: [{ path: 'Idempotency-Key', code: 'invalid', message: 'Expected 1 to 255 visible ASCII characters.' }],
    });
  }
  return key;
}

/** Claims a key for a request, or returns the stored response to replay. */
export function claim(ctx: Ctx, key: string, print: string): { claim: Claim } | { replay: Replay } {
  return ctx.db.transaction(() => {
    const now = nowIso(ctx);
    const row = stmt(ctx.db, 'SELECT * FROM idempotency_keys WHERE key = ?').get(key) as
      | { fingerprint: string; state: string; owner: string; response_status: number; response_body: string; expires_at: string }
      | undefined;
    if (row && row.expires_at > now) {
      if (row.fingerprint !== print) {
        throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used for another request (other method, path or body). Use a new key for a new request.');
      }
      if (row.state === 'done') return { replay: { status: row.response_status, body: row.response_body } };
      if (row.owner === OWNER) {
        throw new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running. Retry after it finishes.', {
          headers: { 'retry-after': '1' },
        });
      }
    }
    const expires = new Date(ctx.clock() + RETENTION_MS).toISOString();
    stmt(ctx.db, `INSERT INTO idempotency_keys (key, fingerprint, state, owner, created_at, expires_at) VALUES (?, ?, 'running', ?, ?, ?)
      ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'running', owner = excluded.owner,
        response_status = NULL, response_body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at`).run(key, print, OWNER, now, expires);
    return { claim: { key, fingerprint: print } };
  })();
}

/** Stores the response of a claimed request; call it inside the write's transaction. */
export function finish(ctx: Ctx, c: Claim, status: number, body: string): void {
  stmt(ctx.db, "UPDATE idempotency_keys SET state = 'done', response_status = ?, response_body = ? WHERE key = ? AND owner = ?").run(status, body, c.key, OWNER);
}

/** Gives a claim up (a 5xx, or a status that is not stored), so that a retry runs again. */
export function release(ctx: Ctx, c: Claim): void {
  stmt(ctx.db, "DELETE FROM idempotency_keys WHERE key = ? AND owner = ? AND state = 'running'").run(c.key, OWNER);
}

/** 2xx and 4xx are stored, except those that say "try again": 401, 403, 409, 429 (API.md §4). */
export const isStoredStatus = (status: number): boolean =>
  (status >= 200 && status < 300) || (status >= 400 && status < 500 && ![401, 403, 409, 429].includes(status));

export function purgeExpired(ctx: Ctx): number {
  return stmt(ctx.db, 'DELETE FROM idempotency_keys WHERE expires_at <= ?').run(nowIso(ctx)).changes;
}
