import type { OAuthApp } from '../schemas/oauth.js';
import type { Db } from './db.js';
import { listTable, type ListQuery } from './list.js';
import { deleteRow, getRow, insertRow, rowCodec, stmt, type Row } from './rows.js';

/** An app as stored, with what authorization needs (never leaves the services). */
export interface AppRecord extends OAuthApp {
  secret_hash: string;
}

const codec = rowCodec<AppRecord>({ json: ['redirect_uris', 'scopes'], bool: ['self_registered'] });

export const insertOAuthApp = (db: Db, app: AppRecord): void => insertRow(db, 'oauth_apps', codec.toRow(app));

export function findOAuthApp(db: Db, id: string): AppRecord | undefined {
  const row = getRow(db, 'oauth_apps', id);
  return row && codec.fromRow(row);
}

export function oauthAppByClientId(db: Db, clientId: string): AppRecord | undefined {
  const row = stmt(db, 'SELECT * FROM oauth_apps WHERE client_id = ?').get(clientId) as Row | undefined;
  return row ? codec.fromRow(row) : undefined;
}

/** A page of apps, each as `view` makes it of the stored app. */
export function listOAuthAppPage<T>(db: Db, cursorSecret: string, q: ListQuery, view: (app: AppRecord) => T) {
  return listTable(db, cursorSecret, 'oauth_apps', q, [], (rows) => rows.map((row) => view(codec.fromRow(row))));
}

/** Deletes the app; its codes and tokens go with it (ON DELETE CASCADE). */
export const deleteOAuthAppRow = (db: Db, id: string): boolean => deleteRow(db, 'oauth_apps', id);

/** Drops answered consent forms whose page expired by `now` (epoch ms). */
export function dropExpiredConsents(db: Db, now: number): void {
  stmt(db, 'DELETE FROM oauth_consents_answered WHERE expires_at <= ?').run(now);
}

/** Records a consent form as answered: false when it already was. */
export const markConsentAnswered = (db: Db, nonce: string, expiresAt: number): boolean =>
  stmt(db, 'INSERT INTO oauth_consents_answered (nonce, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING').run(nonce, expiresAt).changes > 0;

/**
 * The account's self-registered apps: how many there are, how many were made at `since` (ISO) or
 * later, and when the oldest of those was made.
 */
export function countSelfRegisteredApps(db: Db, since: string): { total: number; recent: number; oldestRecent: string | null } {
  return stmt(
    db,
    `SELECT count(*) AS total, coalesce(sum(created_at >= @since), 0) AS recent, min(CASE WHEN created_at >= @since THEN created_at END) AS oldestRecent
       FROM oauth_apps WHERE self_registered = 1`,
  ).get({ since }) as { total: number; recent: number; oldestRecent: string | null };
}
