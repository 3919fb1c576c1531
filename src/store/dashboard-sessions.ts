import type { Db } from './db.js';
import { stmt } from './rows.js';

/**
 * The dashboard's single-use sign-in tokens and its sessions, each kept as the SHA-256 hash of
 * its secret with the API key it acts for. Times are ISO 8601 text.
 */
export interface LoginRow {
  key_id: string;
  expires_at: string;
  used_at: string | null;
}

export interface SessionRow {
  key_id: string;
  expires_at: string;
}

/** Drops sign-in tokens that expired by `now` or were spent. */
export function dropDeadLogins(db: Db, now: string): void {
  stmt(db, 'DELETE FROM dashboard_logins WHERE expires_at <= ? OR used_at IS NOT NULL').run(now);
}

export function insertLogin(db: Db, hash: string, keyId: string, expiresAt: string): void {
  stmt(db, 'INSERT INTO dashboard_logins (hash, key_id, expires_at) VALUES (?, ?, ?)').run(hash, keyId, expiresAt);
}

export const findLogin = (db: Db, hash: string): LoginRow | undefined =>
  stmt(db, 'SELECT key_id, expires_at, used_at FROM dashboard_logins WHERE hash = ?').get(hash) as LoginRow | undefined;

/** Spends a sign-in token by a conditional update: true for the one caller that spent it. */
export const spendLogin = (db: Db, hash: string, now: string): boolean =>
  stmt(db, 'UPDATE dashboard_logins SET used_at = ? WHERE hash = ? AND used_at IS NULL').run(now, hash).changes === 1;

export function dropExpiredSessions(db: Db, now: string): void {
  stmt(db, 'DELETE FROM dashboard_sessions WHERE expires_at <= ?').run(now);
}

export function insertSession(db: Db, hash: string, keyId: string, createdAt: string, expiresAt: string): void {
  stmt(db, 'INSERT INTO dashboard_sessions (hash, key_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(hash, keyId, createdAt, expiresAt);
}

export const findSession = (db: Db, hash: string): SessionRow | undefined =>
  stmt(db, 'SELECT key_id, expires_at FROM dashboard_sessions WHERE hash = ?').get(hash) as SessionRow | undefined;

export function deleteSession(db: Db, hash: string): void {
  stmt(db, 'DELETE FROM dashboard_sessions WHERE hash = ?').run(hash);
}
