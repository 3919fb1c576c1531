import type { ApiKey } from '../schemas/api-key.js';
import type { Db } from './db.js';
import { listTable, type ListQuery } from './list.js';
import { getRow, insertRow, rowCodec, stmt, type Row } from './rows.js';

/** An API key as stored: its secret only as a SHA-256 hash, its scopes as JSON. */
export type StoredApiKey = ApiKey & { hash: string };

const codec = rowCodec<StoredApiKey>({ json: ['scopes'] });

/** What a key's row tells about its rights: scopes, expiry and revocation. */
export interface KeyRights {
  id: string;
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export const isKeyHashTaken = (db: Db, hash: string): boolean => stmt(db, 'SELECT 1 FROM api_keys WHERE hash = ?').get(hash) !== undefined;

export const insertApiKey = (db: Db, key: StoredApiKey): void => insertRow(db, 'api_keys', codec.toRow(key));

export function findApiKey(db: Db, id: string): StoredApiKey | undefined {
  const row = getRow(db, 'api_keys', id);
  return row && codec.fromRow(row);
}

/** A page of keys, each as `view` makes it of the stored key. */
export function listApiKeyPage<T>(db: Db, cursorSecret: string, q: ListQuery, view: (key: StoredApiKey) => T) {
  return listTable(db, cursorSecret, 'api_keys', q, [], (rows: Row[]) => rows.map((row) => view(codec.fromRow(row))));
}

export function markKeyRevoked(db: Db, id: string, now: string): void {
  stmt(db, 'UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(now, id);
}

/** The key with this hash, unless it was revoked (an expired one is the caller's to refuse). */
export const findLiveKeyByHash = (db: Db, hash: string): Omit<KeyRights, 'revoked_at'> | undefined =>
  stmt(db, 'SELECT id, scopes, expires_at FROM api_keys WHERE hash = ? AND revoked_at IS NULL').get(hash) as Omit<KeyRights, 'revoked_at'> | undefined;

/** The rights of the key with this id, revoked or not. */
export const keyRightsById = (db: Db, id: string): Omit<KeyRights, 'id'> | undefined =>
  stmt(db, 'SELECT scopes, expires_at, revoked_at FROM api_keys WHERE id = ?').get(id) as Omit<KeyRights, 'id'> | undefined;

/** Every key not revoked, by id (expired ones too: the caller knows the time). */
export const unrevokedKeys = (db: Db): Omit<KeyRights, 'revoked_at'>[] =>
  stmt(db, 'SELECT id, scopes, expires_at FROM api_keys WHERE revoked_at IS NULL ORDER BY id').all() as Omit<KeyRights, 'revoked_at'>[];

export function markKeyUsed(db: Db, id: string, now: string): void {
  stmt(db, 'UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, id);
}

export const countApiKeyRows = (db: Db): number => stmt(db, 'SELECT count(*) FROM api_keys').pluck().get() as number;

/** The shown start of a key (crm_test_ and four characters), for the request log. */
export const keyPrefix = (db: Db, id: string): string | undefined => stmt(db, 'SELECT prefix FROM api_keys WHERE id = ?').pluck().get(id) as string | undefined;
