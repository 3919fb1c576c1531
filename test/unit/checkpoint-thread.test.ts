import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { checkpointSoon, releaseCheckpoints, useCheckpointWorker } from '../../src/store/checkpoint-thread.js';
import { BACKSTOP_CHECKPOINT_PAGES, checkpointForBulkWrites } from '../../src/store/checkpoints.js';
import { closeDb, openDb, type Db } from '../../src/store/db.js';

/**
 * The checkpoint thread (src/store/checkpoint-thread.ts), run from the compiled worker in dist/ (the
 * test command builds first), on real database files: it copies the write-ahead log into the file
 * while the server's connection copies nothing, and it lets go of a file when asked, before the
 * file is closed or removed.
 */
useCheckpointWorker(fileURLToPath(new URL('../../dist/store/checkpoint-worker.js', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'crm-checkpoint-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database whose log holds ~2 MB of rows its file does not, the connection never checkpointing. */
function withLoggedRows(name: string): { db: Db; path: string } {
  const path = join(dir, name);
  const db = openDb(path);
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE notes (body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO notes (body) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 5_000; i++) insert.run(`${'x'.repeat(400)} ${i}`);
  })();
  return { db, path };
}

/** The rows the database file holds by itself, read from a copy of it without its log. */
function rowsInFileAlone(path: string): number {
  const copy = `${path}.alone`;
  copyFileSync(path, copy);
  const db = new Database(copy, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'notes'").pluck().get() as number) === 1
      ? (db.prepare('SELECT count(*) FROM notes').pluck().get() as number)
      : 0;
  } finally {
    db.close();
    rmSync(copy);
  }
}

describe('the checkpoint thread', () => {
  it('copies the log into the database file, on its own thread', async () => {
    const { db, path } = withLoggedRows('copied.db');
    expect(rowsInFileAlone(path)).toBe(0);
    expect(checkpointSoon(db)).toBe(true);
    await vi.waitFor(() => expect(rowsInFileAlone(path)).toBe(5_000), { timeout: 10_000, interval: 25 });
    closeDb(db);
  });

  it('lets go of the file before it is closed, so that the last connection closed removes the log', async () => {
    const { db, path } = withLoggedRows('released.db');
    checkpointSoon(db);
    await vi.waitFor(() => expect(rowsInFileAlone(path)).toBe(5_000), { timeout: 10_000, interval: 25 });
    releaseCheckpoints(db, true); // returns once the thread's connection is closed
    db.close();
    // Had the thread's connection still been open, this close would not have been the last one.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('does not make a database again whose file was removed', () => {
    const { db, path } = withLoggedRows('removed.db');
    closeDb(db);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    expect(checkpointSoon(db)).toBe(true);
    // setImmediate posts the request; a release after it is handled after it, in order.
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        releaseCheckpoints(db, true);
        expect(existsSync(path)).toBe(false);
        resolve();
      }),
    );
  });

  it('turns the connection’s own checkpoints into a backstop while bulk writes come in', () => {
    const db = openDb(join(dir, 'backstop.db'));
    checkpointForBulkWrites(db);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_CHECKPOINT_PAGES);
    closeDb(db);
  });
});
