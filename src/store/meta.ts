import type { Db } from './db.js';
import { stmt } from './rows.js';

/**
 * The account's own settings and counters, a text value per key in the meta table (db.ts's
 * metaValue makes the secrets that must exist from the start).
 */
export const readMeta = (db: Db, key: string): string | undefined => stmt(db, 'SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;

export function writeMeta(db: Db, key: string, value: string): void {
  stmt(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

export function deleteMeta(db: Db, key: string): void {
  stmt(db, 'DELETE FROM meta WHERE key = ?').run(key);
}
