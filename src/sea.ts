// Running as the single-file executable (scripts/build-binary.mjs): there all the JavaScript is one
// embedded script, and the files that normally sit on disk (the SQL migrations, better-sqlite3's
// native addon in node_modules) are embedded as SEA assets. Outside the binary none of this runs.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAsset, getRawAsset, isSea } from 'node:sea';
import { VERSION } from './version.js';

/** True inside the single binary. */
export const IN_SEA = isSea();

/** An embedded text asset (only inside the binary). */
export function seaText(key: string): string {
  return getAsset(key, 'utf8');
}

/** Makes dir if needed; true if it is ours and nobody else may write to it. */
function privateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(dir);
  return stat.isDirectory() && (process.getuid === undefined || stat.uid === process.getuid()) && (stat.mode & 0o022) === 0;
}

let addon: object | undefined;

/**
 * Inside the binary: better-sqlite3's addon, for `new Database(path, { nativeBinding })`. A native
 * addon can only be loaded from a file, so the embedded one is written once to a cache folder
 * named by the version and its hash (atomically: a concurrent start sees all of it or nothing),
 * then loaded with process.dlopen. Outside the binary: undefined, better-sqlite3 finds its own.
 */
export function sqliteAddon(): object | undefined {
  if (!IN_SEA) return undefined;
  if (addon) return addon;
  const bytes = new Uint8Array(getRawAsset('better_sqlite3.node') as ArrayBuffer);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  let dir = join(tmpdir(), `crm-${VERSION}-${hash}`);
  // A shared /tmp folder of that name made by someone else must not supply our code.
  if (!privateDir(dir)) dir = mkdtempSync(join(tmpdir(), `crm-${VERSION}-`));
  const file = join(dir, 'better_sqlite3.node');
  let cached: Buffer | undefined;
  try {
    cached = readFileSync(file);
  } catch {
    cached = undefined;
  }
  if (!cached?.equals(bytes)) {
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, bytes, { mode: 0o700 });
    renameSync(partial, file);
  }
  const module = { exports: {} };
  process.dlopen(module, file);
  return (addon = module.exports);
}
