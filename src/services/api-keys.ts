import { createHash } from 'node:crypto';
import { credentialIssued } from './credential-issues.js';
import { randomToken } from '../domain/tokens.js';
import { ApiError, notFound } from '../errors.js';
import type { ApiKey, ApiKeyCreate } from '../schemas/api-key.js';
import {
  countApiKeyRows,
  findApiKey,
  findLiveKeyByHash,
  insertApiKey,
  isKeyHashTaken,
  listApiKeyPage,
  markKeyRevoked,
  markKeyUsed,
  type StoredApiKey,
} from '../store/api-keys.js';
import { bookkeepingWrite } from '../store/list-json.js';
import { memoize } from '../memo.js';
import { requireAuthorityOver } from './key-authority.js';
import { nowIso, wallNow } from './clock.js';
import type { Ctx } from './context.js';

/**
 * API keys: `crm_test_` + 32 base62 characters. Only a SHA-256 hash is stored (a key is random
 * enough that a slow hash buys nothing), so a key is shown once, at creation.
 */
export const KEY_PREFIX = 'crm_test_';

/**
 * A secret's SHA-256, remembered: every API request hashed its bearer secret twice (to find its
 * account, then its key), ~4 % of a list request's CPU. Only secrets of a sane length are kept
 * (keys, tokens and session ids are under 100 characters), at most 10,000 of them.
 */
export const hashSecret = memoize((secret: string): string => createHash('sha256').update(secret).digest('hex'), { maxEntries: 10_000, maxKeyLength: 200 });

const view = (stored: StoredApiKey): ApiKey => {
  const { hash: _hash, ...key } = stored;
  return key;
};

export function generateSecret(): string {
  return randomToken(KEY_PREFIX, 32);
}

export function createApiKey(ctx: Ctx, input: ApiKeyCreate, secret = generateSecret()): ApiKey & { secret: string } {
  if (input.expires_at && Date.parse(input.expires_at) <= wallNow(ctx)) {
    throw new ApiError('validation_failed', 'expires_at must be in the future.', {
      errors: [{ path: 'expires_at', code: 'in_past', message: 'expires_at must be in the future.' }],
    });
  }
  const hash = hashSecret(secret);
  if (isKeyHashTaken(ctx.db, hash)) throw new ApiError('conflict', 'This API key is already registered.');
  const key: StoredApiKey = {
    id: ctx.ids.next('key'),
    name: input.name,
    hash,
    prefix: secret.slice(0, KEY_PREFIX.length + 4),
    last4: secret.slice(-4),
    scopes: [...new Set(input.scopes)],
    created_at: nowIso(ctx),
    expires_at: input.expires_at ? new Date(input.expires_at).toISOString() : null,
    last_used_at: null,
    revoked_at: null,
  };
  insertApiKey(ctx.db, key);
  credentialIssued(ctx.db);
  const { hash: _hash, ...shown } = key;
  return { ...shown, secret };
}

export function listApiKeys(ctx: Ctx, q: { limit: number; cursor?: string | undefined }) {
  return listApiKeyPage(ctx.db, ctx.cursorSecret, q, view);
}

export function getApiKey(ctx: Ctx, id: string): ApiKey {
  const key = findApiKey(ctx.db, id);
  if (!key) throw notFound('API key', id);
  return view(key);
}

/** 403 unless `by` holds every scope of key `id` (key-authority.ts); a key that does not exist is the caller's 404 to give. */
export function requireAuthorityOverKey(ctx: Ctx, by: Principal | null, id: string): void {
  const key = findApiKey(ctx.db, id);
  if (key) requireAuthorityOver(by, 'revoke', { kind: 'key', id, scopes: key.scopes });
}

/** Revokes a key on behalf of `by`, which must hold every scope the key holds (key-authority.ts). */
export function revokeApiKey(ctx: Ctx, id: string, by: Principal | null): ApiKey {
  const key = getApiKey(ctx, id);
  requireAuthorityOver(by, 'revoke', { kind: 'key', id, scopes: key.scopes });
  if (key.revoked_at) return key;
  markKeyRevoked(ctx.db, id, nowIso(ctx));
  knownKeys.delete(ctx.db); // the next request with the key reads the row again: 401
  return getApiKey(ctx, id);
}

/** The principal behind a bearer secret, or undefined when it is unknown, revoked or expired. */
export interface Principal {
  /** The key's or token's id: what rate limits, quotas and usage are counted against. */
  subject: string;
  scopes: readonly string[];
  /**
   * When the credential stops working (epoch ms), or null if it does not expire: the latest a
   * key it creates may expire (a child never outlives its parent, docs/security.md#keys-tokens-and-sessions).
   */
  expiresAt: number | null;
}

const lastUseWritten = new Map<string, number>();

interface KnownKey {
  id: string;
  scopes: readonly string[];
  /** Epoch ms, or null for a key that does not expire. */
  expiresAt: number | null;
}

/**
 * The live keys each database has answered for, by hash. A key's id, scopes and expiry never
 * change; only a revoke does, which empties the database's map (revokeApiKey). Unknown and
 * revoked hashes are not kept, so a key created later is found.
 */
const knownKeys = new WeakMap<Ctx['db'], Map<string, KnownKey>>();

function findKey(ctx: Ctx, hash: string): KnownKey | undefined {
  let keys = knownKeys.get(ctx.db);
  if (!keys) knownKeys.set(ctx.db, (keys = new Map()));
  let key = keys.get(hash);
  if (key === undefined) {
    const row = findLiveKeyByHash(ctx.db, hash);
    if (!row) return undefined;
    const scopes = Object.freeze(JSON.parse(row.scopes) as string[]);
    keys.set(hash, (key = { id: row.id, scopes, expiresAt: row.expires_at ? Date.parse(row.expires_at) : null }));
  }
  return key;
}

/**
 * The principal of a live key (known, not revoked, not expired). A request's authentication
 * records the use; an open stream checking again that its key still stands (every second) does
 * not (`recordUse: false`): that would be a write a second for each stream, idle or not.
 */
export function authenticateKey(ctx: Ctx, secret: string, { recordUse = true }: { recordUse?: boolean } = {}): Principal | undefined {
  const key = findKey(ctx, hashSecret(secret));
  if (!key) return undefined;
  const now = wallNow(ctx);
  if (key.expiresAt !== null && key.expiresAt <= now) return undefined;
  // last_used_at is for people reading the key list: a write per second per key is plenty.
  if (recordUse && (lastUseWritten.get(key.id) ?? 0) < now - 1000) {
    lastUseWritten.set(key.id, now);
    bookkeepingWrite(ctx.db, () => markKeyUsed(ctx.db, key.id, nowIso(ctx)));
  }
  return { subject: key.id, scopes: key.scopes, expiresAt: key.expiresAt };
}

export const countApiKeys = (ctx: Ctx): number => countApiKeyRows(ctx.db);
