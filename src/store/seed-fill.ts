import type { Db } from './db.js';
import { stmt } from './rows.js';
import { emptySearchIndexes } from './search-index.js';
import { DATA_META_KEYS, DATA_TABLES } from './tables.js';

/**
 * The SQL of filling an account (src/seed/fill.ts): whether it holds data, emptying it for a
 * reset, and what the fixtures look up.
 */

export function isEmpty(db: Db): boolean {
  return DATA_TABLES.every((t) => !stmt(db, `SELECT 1 FROM ${t} LIMIT 1`).get());
}

export const hasWebhookEndpoints = (db: Db) => stmt(db, 'SELECT 1 FROM webhook_endpoints LIMIT 1').get() !== undefined;

/** Deletes the account's data and its invoice numbering; inside the caller's transaction. */
export function emptyData(db: Db): void {
  for (const table of [...DATA_TABLES].reverse()) db.exec(`DELETE FROM ${table}`);
  emptySearchIndexes(db);
  for (const key of DATA_META_KEYS) stmt(db, 'DELETE FROM meta WHERE key = ?').run(key);
}

/** A fixture's record names its client by external id (as the file has it: any JSON value). */
export const clientIdByExternalId = (db: Db, externalId: unknown) =>
  stmt(db, 'SELECT id FROM clients WHERE external_id = ?').pluck().get(externalId) as string | undefined;
