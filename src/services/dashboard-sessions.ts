import { randomBytes } from 'node:crypto';
import { credentialIssued } from './credential-issues.js';
import { ApiError } from '../errors.js';
import { keyRightsById, unrevokedKeys } from '../store/api-keys.js';
import {
  deleteSession,
  dropDeadLogins,
  dropExpiredSessions,
  findLogin,
  findSession,
  insertLogin,
  insertSession,
  spendLogin,
} from '../store/dashboard-sessions.js';
import { authenticateKey, hashSecret, type Principal } from './api-keys.js';
import { wallNow } from './clock.js';
import type { Ctx } from './context.js';

/**
 * Dashboard sign-in (docs/dashboard.md#signing-in): single-use login tokens trade for a session, and a session
 * carries the rights of the API key it was made from. Only hashes are stored.
 */
export const LOGIN_TTL_MS = 15 * 60 * 1000;
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

const iso = (ms: number) => new Date(ms).toISOString();
const randomToken = () => randomBytes(32).toString('base64url');

/** A login token for the key keyId; returns the token (shown once) and when it expires. */
export function createLoginToken(ctx: Ctx, keyId: string): { token: string; expires_at: string } {
  const token = randomToken();
  const expiresAt = iso(wallNow(ctx) + LOGIN_TTL_MS);
  // Spent and expired tokens are of no use to anyone: drop them as new ones are made.
  dropDeadLogins(ctx.db, iso(wallNow(ctx)));
  insertLogin(ctx.db, hashSecret(token), keyId, expiresAt);
  credentialIssued(ctx.db);
  return { token, expires_at: expiresAt };
}

/** The admin key (scope `*`, not revoked or expired) the sandbox's printed sign-in link is bound to. */
export function adminKeyId(ctx: Ctx): string | undefined {
  const rows = unrevokedKeys(ctx.db);
  const now = wallNow(ctx);
  return rows.find((r) => (JSON.parse(r.scopes) as string[]).includes('*') && (!r.expires_at || Date.parse(r.expires_at) > now))?.id;
}

export interface Session {
  /** The cookie value (shown once, to the browser). */
  id: string;
  expires_at: string;
  principal: Principal;
}

function openSession(ctx: Ctx, keyId: string, principal: Principal): Session {
  const id = randomToken();
  const now = wallNow(ctx);
  const expiresAt = iso(now + SESSION_TTL_MS);
  dropExpiredSessions(ctx.db, iso(now));
  insertSession(ctx.db, hashSecret(id), keyId, iso(now), expiresAt);
  credentialIssued(ctx.db);
  return { id, expires_at: expiresAt, principal };
}

const invalidLogin = () =>
  new ApiError('unauthenticated', 'This sign-in link was already used or has expired (links last 15 minutes). Run `crm dashboard` for a fresh one.');

/** Trades a login token for a session, once: the token is spent even if the key behind it turns out revoked. */
export function signInWithToken(ctx: Ctx, token: string): Session {
  const hash = hashSecret(token);
  const row = findLogin(ctx.db, hash);
  if (!row || row.used_at || Date.parse(row.expires_at) <= wallNow(ctx)) throw invalidLogin();
  // Spent by a conditional update, so two racing requests cannot both use it.
  if (!spendLogin(ctx.db, hash, iso(wallNow(ctx)))) throw invalidLogin();
  const principal = principalOfKeyId(ctx, row.key_id);
  if (!principal) throw new ApiError('unauthenticated', 'The API key behind this sign-in link was revoked or has expired.');
  return openSession(ctx, row.key_id, principal);
}

/** Signs in with a pasted API key: the session has that key's scopes, no more. */
export function signInWithKey(ctx: Ctx, secret: string): Session {
  const principal = authenticateKey(ctx, secret);
  if (!principal) throw new ApiError('unauthenticated', 'The API key is unknown, revoked or expired.');
  return openSession(ctx, principal.subject, principal);
}

function principalOfKeyId(ctx: Ctx, keyId: string): Principal | undefined {
  const row = keyRightsById(ctx.db, keyId);
  if (!row || row.revoked_at || (row.expires_at && Date.parse(row.expires_at) <= wallNow(ctx))) return undefined;
  // The session acts as its key: the key's expiry, not the session's, bounds what it creates.
  return { subject: keyId, scopes: JSON.parse(row.scopes) as string[], expiresAt: row.expires_at ? Date.parse(row.expires_at) : null };
}

/** The principal behind a session cookie, or undefined when the session or its key is gone. */
export function sessionPrincipal(ctx: Ctx, sessionId: string): Principal | undefined {
  const row = findSession(ctx.db, hashSecret(sessionId));
  if (!row || Date.parse(row.expires_at) <= wallNow(ctx)) return undefined;
  return principalOfKeyId(ctx, row.key_id);
}

export function signOut(ctx: Ctx, sessionId: string): void {
  deleteSession(ctx.db, hashSecret(sessionId));
}
