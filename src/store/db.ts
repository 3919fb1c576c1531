import { createAllFieldIndexes } from './custom-field-sql.js';
import { defineHeldFields } from './held-fields.js';
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makePrivateDir, preparePrivateDatabase } from '../private-files.js';
import { IN_SEA, seaText, sqliteAddon } from '../sea.js';
import { releaseCheckpoints } from './checkpoint-thread.js';
import { CHECKPOINT_PAGES } from './checkpoints.js';

export type Db = Database.Database;

/**
 * The migrations, in order: each file name, and its SQL on demand. From the folder beside this module, or, in the
 * single binary (scripts/build-binary.mjs), from its assets: 'migrations/index' lists the names
 * and each is the asset 'migrations/<name>'. The SQL is read only for a migration not yet applied.
 */
function migrationFiles(): { file: string; sql: () => string }[] {
  const pattern = /^\d{3}-.+\.sql$/;
  if (IN_SEA) {
    const names = seaText('migrations/index')
      .split('\n')
      .filter((f) => pattern.test(f))
      .sort();
    return names.map((file) => ({ file, sql: () => seaText(`migrations/${file}`) }));
  }
  // Resolved here, not at load time: in the bundle import.meta.url is empty.
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
  const names = readdirSync(dir)
    .filter((f) => pattern.test(f))
    .sort();
  return names.map((file) => ({ file, sql: () => readFileSync(join(dir, file), 'utf8') }));
}

/** The names of the migrations a fully migrated database has applied, in order. */
export function migrationNames(): string[] {
  return migrationFiles().map(({ file }) => file);
}

/**
 * Opens (creating if needed) the sandbox database: WAL so readers never wait for the writer,
 * foreign keys on, and every pending migration applied in order, each in its own transaction.
 */
export function openDb(path: string | Buffer): Db {
  // A Buffer is a database image (Database#serialize): opened in memory, as a copy. A file holds
  // the account's secrets: 0600 before SQLite opens it, so its -wal and -shm are made 0600 too.
  if (typeof path === 'string' && path !== ':memory:') {
    makePrivateDir(dirname(path));
    preparePrivateDatabase(path);
  }
  // In the single binary, its embedded addon (better-sqlite3 takes the loaded object too, though
  // @types/better-sqlite3 declares only the path form); otherwise undefined: node_modules' addon.
  const addon = sqliteAddon();
  const db = new Database(path as string, addon ? { nativeBinding: addon as unknown as string } : {});
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL'); // WAL + NORMAL: durable across app crashes, fast commits
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Every write runs in a savepoint nested in the request's transaction; their undo journals
  // go to temporary files unless kept in memory, which doubled the cost of a bulk insert.
  db.pragma('temp_store = MEMORY');
  // better-sqlite3 builds SQLite with a 16 MB page cache a connection; a 1M-lead import fills it, and
  // it was the part of the sandbox's memory that grew with the data (docs/benchmarks.md). 4 MB: 15 MB less
  // at 1M leads, the import ~2 % slower (the pages come from the OS's file cache instead).
  db.pragma('cache_size = -4000');
  // Small checkpoint steps, large ones while bulk writes come in (checkpoints.ts).
  db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
  migrate(db);
  return db;
}

/** Closes a database openDb opened, once the checkpoint thread has let go of it (checkpoint-thread.ts). */
export function closeDb(db: Db): void {
  releaseCheckpoints(db, true);
  db.close();
}

/** A database image (Database#serialize) opened in memory as it is, with no pragmas or migrations: to read. */
export function openImage(image: Buffer): Db {
  const addon = sqliteAddon();
  return new Database(image as unknown as string, addon ? { nativeBinding: addon as unknown as string } : {});
}

/** What a migration does beyond its SQL, run in the same transaction after it: what SQL cannot say. */
const AFTER_SQL: Record<number, (db: Db) => void> = { 21: defineHeldFields, 23: createAllFieldIndexes };

function migrate(db: Db): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  for (const { file, sql: readSql } of migrationFiles()) {
    const version = Number(file.slice(0, 3));
    if (applied.has(version)) continue;
    const sql = readSql();
    db.transaction(() => {
      db.exec(sql);
      AFTER_SQL[version]?.(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(version, file, new Date().toISOString());
    })();
  }
}

/** A value kept in the meta table, made once (e.g. the secret that signs cursors). */
export function metaValue(db: Db, key: string, make: () => string = () => randomBytes(32).toString('base64url')): string {
  const found = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
  if (found !== undefined) return found;
  const value = make();
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  return db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string;
}
