import type { Db } from './db.js';
import { stmt } from './rows.js';
import { emptySearchIndexes } from './search-index.js';
import { SNAPSHOT_META_KEYS, SNAPSHOT_TABLES } from './tables.js';

/**
 * The SQL of snapshots (src/accounts/snapshots.ts): their rows in the registry (the default
 * account's database), the copy of an account's database, and putting one back.
 */
export interface SnapshotRow {
  account_id: string;
  name: string;
  file: string;
  created_at: string;
}

export const findSnapshot = (registry: Db, accountId: string, name: string) =>
  stmt(registry, 'SELECT * FROM account_snapshots WHERE account_id = ? AND name = ?').get(accountId, name) as SnapshotRow | undefined;

export const snapshotsOf = (registry: Db, accountId: string) =>
  stmt(registry, 'SELECT * FROM account_snapshots WHERE account_id = ? ORDER BY created_at, name').all(accountId) as SnapshotRow[];

export function insertSnapshot(registry: Db, row: SnapshotRow): void {
  stmt(registry, 'INSERT INTO account_snapshots (account_id, name, file, created_at) VALUES (?, ?, ?, ?)').run(
    row.account_id,
    row.name,
    row.file,
    row.created_at,
  );
}

export function deleteSnapshotRow(registry: Db, accountId: string, name: string): void {
  stmt(registry, 'DELETE FROM account_snapshots WHERE account_id = ? AND name = ?').run(accountId, name);
}

/** The whole database copied into `file` (an empty file made beforehand). */
export function copyDatabase(db: Db, file: string): void {
  stmt(db, `VACUUM INTO ?`).run(file);
}

const META_KEYS = `(${SNAPSHOT_META_KEYS.map((key) => `'${key}'`).join(', ')})`;

/** The snapshot's file beside the account's database, as `snap`, until detachSnapshot. */
export function attachSnapshot(db: Db, file: string): void {
  db.prepare('ATTACH DATABASE ? AS snap').run(file);
}

export function detachSnapshot(db: Db): void {
  db.exec('DETACH DATABASE snap');
}

/**
 * Replaces SNAPSHOT_TABLES and the snapshot's meta keys with the attached snapshot's, inside the
 * caller's transaction (a request sees the account all before or all after).
 */
export function copySnapshotBack(db: Db): void {
  db.pragma('defer_foreign_keys = ON');
  for (const table of [...SNAPSHOT_TABLES].reverse()) db.exec(`DELETE FROM main.${table}`);
  emptySearchIndexes(db);
  for (const table of SNAPSHOT_TABLES) {
    // Deliveries to an endpoint deleted since the snapshot have nowhere to go.
    const where = table === 'webhook_deliveries' ? ' WHERE endpoint_id IN (SELECT id FROM main.webhook_endpoints)' : '';
    db.exec(`INSERT INTO main.${table} SELECT * FROM snap.${table}${where}`);
  }
  db.exec(`DELETE FROM main.meta WHERE key IN ${META_KEYS}`);
  db.exec(`INSERT INTO main.meta SELECT * FROM snap.meta WHERE key IN ${META_KEYS}`);
}
