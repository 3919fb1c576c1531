import { existsSync, rmSync, rmdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * What a start must not leave behind when it fails: a busy port used to be found only after the
 * database was created and seeded, so a new `other.db` stayed with an admin key nobody ever saw.
 */

/**
 * Remembers whether a database file (and which of its folders) is about to be made by this start,
 * so that a start failing after it (a bad fixture, a path that cannot be a file) removes exactly
 * what it made: the file, its -wal/-shm/-journal, and the folders it created, if they are empty.
 * An existing database is never touched.
 */
export function newDatabaseFiles(path: string): { remove(): void } {
  if (path === ':memory:' || existsSync(path)) return { remove() {} };
  const folders: string[] = [];
  for (let dir = resolve(dirname(path)); !existsSync(dir) && dir !== dirname(dir); dir = dirname(dir)) folders.push(dir);
  return {
    remove() {
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
      for (const dir of folders) {
        try {
          rmdirSync(dir); // only when empty: anything else in it is not ours
        } catch {
          break;
        }
      }
    },
  };
}
