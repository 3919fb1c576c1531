import type { Db } from './db.js';
import { allRows, insertRows, stmt } from './rows.js';
import { DATA_META_KEYS, DATA_TABLES, DERIVED_TABLE, SEED_CONFIGURATION_TABLES } from './tables.js';

/**
 * The SQL of the seed image (src/seed/seed-image.ts): its rows copied into an account, what it
 * holds, and the mark in its header.
 */

/** The migrations a database was made with, in order, as one string. */
export const migrationsOf = (db: Db) => stmt(db, 'SELECT group_concat(name) FROM (SELECT name FROM schema_migrations ORDER BY version)').pluck().get();

/** The image's data rows and invoice numbering into `db`, inside the caller's transaction. */
export function copyImageRows(image: Db, db: Db): void {
  // The image's field definitions are not copied: the account keeps its own (fill defines the seed's missing ones).
  for (const table of DATA_TABLES) insertRows(db, table, allRows(image, `SELECT * FROM ${table} ORDER BY rowid`, []));
  for (const key of DATA_META_KEYS) {
    const value = stmt(image, 'SELECT value FROM meta WHERE key = ?').pluck().get(key);
    if (value !== undefined) stmt(db, 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  }
}

/** Whether the image holds rows only in DATA_TABLES and the seed's configuration (or derived from those). */
export function onlyDataRows(image: Db): boolean {
  const tables = image.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
  const seedTables: readonly string[] = [...DATA_TABLES, ...SEED_CONFIGURATION_TABLES];
  return tables.every(
    (table) => seedTables.includes(table) || DERIVED_TABLE.test(table) || image.prepare(`SELECT 1 FROM "${table}" LIMIT 1`).get() === undefined,
  );
}

/** The mark of an image in its header (SQLite's user_version). */
export function setImageMark(db: Db, mark: number): void {
  db.pragma(`user_version = ${mark}`);
}

/**
 * A file written from the image made this sandbox's own: no mark, none of the build's secrets (of
 * meta only the invoice numbering is data) and the migrations dated now.
 */
export function adoptImageFile(db: Db): void {
  const marks = DATA_META_KEYS.map(() => '?').join(', ');
  db.transaction(() => {
    setImageMark(db, 0); // the image's mark is the build's, not this file's
    stmt(db, `DELETE FROM meta WHERE key NOT IN (${marks})`).run(...DATA_META_KEYS);
    stmt(db, 'UPDATE schema_migrations SET applied_at = ?').run(new Date().toISOString());
  })();
}
