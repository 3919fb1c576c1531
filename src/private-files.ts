import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Files crm writes hold secrets or data (webhook secrets, the cursor secret, payment tokens,
 * request bodies, API keys, CRM records): its folders are 0700 and its files 0600, whatever the
 * umask. The mode given to mkdir and open passes through the umask, so each is set again
 * explicitly (chmod, fchmod) right after creation, before anything is written.
 */
const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/**
 * mkdir -p whose new folders are 0700. A folder that already exists keeps its mode: it may be
 * the user's own (the folder a --db or --results path names), which crm has no business changing.
 */
export function makePrivateDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  const top = resolve(first);
  for (let level = resolve(dir); ; level = dirname(level)) {
    chmodSync(level, PRIVATE_DIR_MODE);
    if (level === top || level === dirname(level)) break;
  }
}

/** openSync for writing, the file 0600 from its first byte (an existing one too: crm is about to write its data into it). */
export function openPrivate(path: string, flags: 'w' | 'wx' | 'a'): number {
  const fd = openSync(path, flags, PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

export function writePrivateFile(path: string, data: string | Uint8Array, flags: 'w' | 'wx' = 'w'): void {
  const fd = openPrivate(path, flags);
  try {
    writeFileSync(fd, data);
  } finally {
    closeSync(fd);
  }
}

/**
 * Makes a SQLite database file 0600 before SQLite opens it (creating it empty if need be, which
 * SQLite takes as a new database). SQLite gives the -wal and -shm files it creates the database
 * file's mode, so they follow; any left by an earlier run are made 0600 here too. Also right for
 * a VACUUM INTO target, which may be an empty file.
 */
export function preparePrivateDatabase(path: string): void {
  closeSync(openPrivate(path, 'a'));
  for (const suffix of ['-wal', '-shm', '-journal']) if (existsSync(`${path}${suffix}`)) chmodSync(`${path}${suffix}`, PRIVATE_FILE_MODE);
}
