import { createHash, hash } from 'node:crypto';
import { ApiError } from '../errors.js';
import { isSmallTree, isSorted } from '../json-tree.js';
import { deleteResponsesExpiredBy, storedResponse, storeResponse } from '../store/idempotency.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';

/**
 * Idempotency keys (docs/reference/limits.md#idempotency), after Stripe and draft-ietf-httpapi-idempotency-key-header.
 * A finished request's response is stored in the same transaction as its write and events (finish);
 * a retry with the same request replays it, with another request is refused (422). While the first
 * request still runs, its key is held in this process's memory and a retry gets 409: a claim only
 * means something to the process that can finish it, so a crash can never leave a key blocked.
 */
const RETENTION_MS = 24 * 60 * 60 * 1000;

/** Keys of requests still running, with their fingerprints, per database (several sandboxes may share a process). */
const runningByDb = new WeakMap<Ctx['db'], Map<string, string>>();
function running(ctx: Ctx): Map<string, string> {
  let map = runningByDb.get(ctx.db);
  if (!map) runningByDb.set(ctx.db, (map = new Map()));
  return map;
}

export interface Claim {
  key: string;
  fingerprint: string;
}

export type Replay = { status: number; body: string };

/**
 * JSON with the members of every object sorted by name (RFC 8785's order for the keys we see), so
 * that one object serialised by two clients in two orders is one body: a retry from a serialiser
 * that orders keys differently is a replay, not 422 `idempotency_key_reused`.
 */
export function canonicalJson(value: unknown): string {
  let text = '';
  writeCanonical(value, (piece) => (text += piece));
  return text;
}

/**
 * SHA-256 (hex) of canonicalJson(value), hashed in pieces of ~16 KB as they are made: a bulk body's
 * canonical text whole is a ~150 KB string a batch, a large object only a full collection frees.
 * A smaller body is hashed at once (crypto.hash), which takes half the time of a Hash object for it.
 */
export function canonicalJsonDigest(value: unknown): string {
  let hasher: ReturnType<typeof createHash> | undefined;
  let pending = '';
  writeCanonical(value, (piece) => {
    pending += piece;
    if (pending.length < 16_384) return;
    (hasher ??= createHash('sha256')).update(pending);
    pending = '';
  });
  return hasher ? hasher.update(pending).digest('hex') : sha256Hex(pending);
}

const sha256Hex = (text: string): string => hash('sha256', text, 'hex');

// Plain loops, names sorted only when they are not already: the map/filter/join version was 9 % of
// the server's CPU in an import (a fingerprint per batch of 500 records), this one half of that.
function writeCanonical(value: unknown, write: (piece: string) => void): void {
  if (value === null || typeof value !== 'object') return write(JSON.stringify(value) ?? 'null');
  if (Array.isArray(value)) {
    write('[');
    for (let i = 0; i < value.length; i++) {
      if (i) write(',');
      writeCanonical(value[i] === undefined ? null : value[i], write);
    }
    return write(']');
  }
  const object = value as Record<string, unknown>;
  const names = Object.keys(object);
  if (!isSorted(names)) names.sort();
  // Sorted all the way down (`crm sync` sends its records so), its canonical text is JSON.stringify's.
  else if (isSmallTree(object, 3, isSorted)) return write(JSON.stringify(object));
  let first = true;
  write('{');
  for (const name of names) {
    const member = object[name];
    if (member === undefined) continue;
    write(first ? quotedName(name) : `,${quotedName(name)}`);
    first = false;
    writeCanonical(member, write);
  }
  write('}');
}

/** `"name":`, remembered: a batch repeats the same dozen member names in each of its records. */
const quotedNames = new Map<string, string>();
function quotedName(name: string): string {
  let quoted = quotedNames.get(name);
  if (quoted === undefined) {
    quoted = `${JSON.stringify(name)}:`;
    if (quotedNames.size < 10_000) quotedNames.set(name, quoted); // bounded: names come from request bodies
  }
  return quoted;
}

/** A request as the idempotency record knows it: method, routed path and the body's canonical JSON (none: ''). */
export function fingerprint(method: string, path: string, body: unknown): string {
  const bodyHash = body === undefined ? sha256Hex('') : canonicalJsonDigest(body);
  return sha256Hex(`${method}\n${path}\n${bodyHash}`);
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
  const reused = () =>
    new ApiError('idempotency_key_reused', 'This Idempotency-Key was used for another request (other method, path or body). Use a new key for a new request.');
  const stored = storedResponse(ctx.db, key, nowIso(ctx));
  if (stored) {
    if (stored.fingerprint !== print) throw reused();
    return { replay: { status: stored.response_status, body: stored.response_body } };
  }
  const inFlight = running(ctx).get(key);
  if (inFlight !== undefined) {
    if (inFlight !== print) throw reused();
    throw new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running. Retry after it finishes.', {
      headers: { 'retry-after': '1' },
    });
  }
  running(ctx).set(key, print);
  return { claim: { key, fingerprint: print } };
}

/** Stores the response of a claimed request; call it inside the write's transaction. */
export function finish(ctx: Ctx, c: Claim, status: number, body: string): void {
  const now = ctx.clock();
  const response = { fingerprint: c.fingerprint, response_status: status, response_body: body };
  storeResponse(ctx.db, c.key, response, new Date(now).toISOString(), new Date(now + RETENTION_MS).toISOString());
  running(ctx).delete(c.key);
}

/** Gives a claim up (a 5xx, or a status that is not stored), so that a retry runs again. */
export function release(ctx: Ctx, c: Claim): void {
  running(ctx).delete(c.key);
}

/** 2xx and 4xx are stored, except those that say "try again": 401, 403, 409, 429 (docs/reference/limits.md#idempotency). */
export const isStoredStatus = (status: number): boolean =>
  (status >= 200 && status < 300) || (status >= 400 && status < 500 && ![401, 403, 409, 429].includes(status));

export function purgeExpired(ctx: Ctx): number {
  return deleteResponsesExpiredBy(ctx.db, nowIso(ctx));
}
