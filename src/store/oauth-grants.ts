import type { Db } from './db.js';
import { stmt } from './rows.js';

/**
 * OAuth authorization codes and tokens, stored as the SHA-256 hashes of their secrets. Each
 * grant is a token family (family_id); times are ISO 8601 text.
 */
export interface CodeRow {
  app_id: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string;
  expires_at: string;
  used_at: string | null;
  family_id: string | null;
}
export interface TokenRow {
  kind: 'access' | 'refresh';
  app_id: string;
  family_id: string;
  scopes: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

export interface NewCode {
  hash: string;
  appId: string;
  redirectUri: string;
  scopes: string;
  codeChallenge: string;
  createdAt: string;
  expiresAt: string;
}
export interface NewToken {
  hash: string;
  kind: TokenRow['kind'];
  appId: string;
  familyId: string;
  scopes: string;
  createdAt: string;
  expiresAt: string;
}

export function insertCode(db: Db, c: NewCode): void {
  stmt(
    db,
    `INSERT INTO oauth_codes (hash, app_id, redirect_uri, scopes, code_challenge, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(c.hash, c.appId, c.redirectUri, c.scopes, c.codeChallenge, c.createdAt, c.expiresAt);
}

export const findCode = (db: Db, hash: string): CodeRow | undefined => stmt(db, 'SELECT * FROM oauth_codes WHERE hash = ?').get(hash) as CodeRow | undefined;

/** The code is spent, and bought the tokens of this family. */
export function markCodeUsed(db: Db, hash: string, familyId: string, now: string): void {
  stmt(db, 'UPDATE oauth_codes SET used_at = ?, family_id = ? WHERE hash = ?').run(now, familyId, hash);
}

export function insertToken(db: Db, t: NewToken): void {
  stmt(db, `INSERT INTO oauth_tokens (hash, kind, app_id, family_id, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
    t.hash,
    t.kind,
    t.appId,
    t.familyId,
    t.scopes,
    t.createdAt,
    t.expiresAt,
  );
}

export const findToken = (db: Db, hash: string): TokenRow | undefined =>
  stmt(db, 'SELECT * FROM oauth_tokens WHERE hash = ?').get(hash) as TokenRow | undefined;

/** What a token may do: the columns a request's authentication reads. */
export const tokenRights = (db: Db, hash: string): Omit<TokenRow, 'family_id' | 'used_at'> | undefined =>
  stmt(db, 'SELECT kind, app_id, scopes, expires_at, revoked_at FROM oauth_tokens WHERE hash = ?').get(hash) as
    | Omit<TokenRow, 'family_id' | 'used_at'>
    | undefined;

/** Whose token it is, and of which grant. */
export const tokenOwner = (db: Db, hash: string): Pick<TokenRow, 'kind' | 'app_id' | 'family_id'> | undefined =>
  stmt(db, 'SELECT kind, app_id, family_id FROM oauth_tokens WHERE hash = ?').get(hash) as Pick<TokenRow, 'kind' | 'app_id' | 'family_id'> | undefined;

export function markTokenUsed(db: Db, hash: string, now: string): void {
  stmt(db, 'UPDATE oauth_tokens SET used_at = ? WHERE hash = ?').run(now, hash);
}

export function revokeTokenRow(db: Db, hash: string, now: string): void {
  stmt(db, 'UPDATE oauth_tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL').run(now, hash);
}

/** Revokes every token of a grant not yet revoked. */
export function revokeTokenFamily(db: Db, familyId: string, now: string): void {
  stmt(db, 'UPDATE oauth_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL').run(now, familyId);
}

/** Drops codes and tokens that expired before `cutoff`. */
export function dropCodesAndTokensExpiredBefore(db: Db, cutoff: string): void {
  stmt(db, 'DELETE FROM oauth_codes WHERE expires_at < ?').run(cutoff);
  stmt(db, 'DELETE FROM oauth_tokens WHERE expires_at < ?').run(cutoff);
}
