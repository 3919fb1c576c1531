import { closeSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { getRawAsset } from 'node:sea';
import { IN_SEA } from '../sea.js';
import type { Ctx } from '../services/context.js';
import { renewPaymentLinks } from '../services/payment-links.js';
import { makePrivateDir, openPrivate } from '../private-files.js';
import { migrationNames, openImage, type Db } from '../store/db.js';
import { adoptImageFile, copyImageRows, migrationsOf, onlyDataRows, setImageMark } from '../store/seed-image-rows.js';

/**
 * The default seed's data (seed 1), made at build time by scripts/build-seed-image.mjs: a database
 * that seed() filled, as an image. Seeding runs ~300 records through the services (~50 ms of a
 * fresh start, most of the binary's); copying their rows takes a few. Seeding is deterministic
 * (fixed clock and ids from the seed), so the copy is the same data, row for row
 * (test/unit/seed-image.test.ts). Its rows are those of DATA_TABLES (store/tables.ts) and the invoice number counter;
 * search rows are made again by the triggers, as when seeding. Payment links are the exception:
 * their tokens are secrets, random in every sandbox, and their URL is the sandbox's own, so each
 * copied invoice gets a new token and its link is rewritten where it appears (the invoice's mail
 * and events).
 */
const SEED_IMAGE_FILE = 'seed-1.sqlite';
/** Where the build puts the image, in dist/ and among the binary's assets: sandbox/, where it has always been. */
export const SEED_IMAGE_ASSET = `sandbox/${SEED_IMAGE_FILE}`;
/** The base URL the build seeds with: every payment link in the image starts with it. */
export const SEED_IMAGE_BASE_URL = 'http://seed-image.invalid';

function readImage(): Buffer | undefined {
  try {
    if (IN_SEA) return Buffer.from(getRawAsset(SEED_IMAGE_ASSET) as ArrayBuffer);
    return readFileSync(new URL(`../${SEED_IMAGE_ASSET}`, import.meta.url));
  } catch {
    return undefined; // not built (a source checkout run by tsx): seed() instead
  }
}

/**
 * Copies the image's rows into an empty account database, inside the caller's transaction; false
 * (and nothing written) when there is no image or it was made for other migrations.
 */
export function copySeedImage(ctx: Ctx, bytes: Buffer | undefined = readImage()): boolean {
  if (!bytes) return false;
  const image = openImage(bytes);
  try {
    if (migrationsOf(image) !== migrationsOf(ctx.db)) return false;
    copyImageRows(image, ctx.db);
    renewPaymentLinks(ctx, { fromBaseUrl: SEED_IMAGE_BASE_URL });
    return true;
  } finally {
    image.close();
  }
}

/**
 * The mark of an image that may be written whole as a new file: FNV-1a of this build's migration
 * names, as a signed 32-bit integer (what SQLite's user_version holds), never 0 (no mark).
 */
export function wholeFileMark(names: readonly string[] = migrationNames()): number {
  let hash = 0x811c9dc5;
  const text = names.join(',');
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0 || 1;
}

/**
 * For the build (scripts/build-seed-image.mjs): marks an image that may be written whole, in its
 * header (user_version), when it was made for this build's migrations and holds only seed rows; an
 * image that does not qualify is left unmarked, and a fresh sandbox copies its rows instead. So a
 * start reads 4 bytes of the header instead of opening the image to ask (~3.5 ms of each start).
 */
export function markWholeFileImage(image: Db): boolean {
  // Only rows where copySeedImage takes them from (or derived from those): a seed that one day
  // writes keys or webhook secrets must not hand the same ones to every sandbox through the whole
  // file. Then the row copy is used, as before.
  const fits = migrationsOf(image) === migrationNames().join(',') && onlyDataRows(image);
  setImageMark(image, fits ? wholeFileMark() : 0);
  return fits;
}

/** The image's mark, from its header (big-endian at byte 60 of a file that starts "SQLite format 3"). */
const markOf = (bytes: Buffer): number => (bytes.length >= 100 && bytes.toString('latin1', 0, 16) === 'SQLite format 3\0' ? bytes.readInt32BE(60) : 0);

/**
 * A new sandbox file made in one step: the image written as the file, when the build marked it for
 * exactly the migrations this build has (else false, nothing written: the caller migrates and seeds).
 * Opening an empty file, migrating it and copying the image's rows was ~20 ms of a cold start (docs/benchmarks.md).
 * Call only for a path that does not exist yet; then openDb, then adoptSeedImageFile.
 */
export function writeSeedImageFile(path: string, bytes: Buffer | undefined = readImage()): boolean {
  if (!bytes || markOf(bytes) !== wholeFileMark()) return false;
  makePrivateDir(dirname(path));
  let fd: number;
  try {
    fd = openPrivate(path, 'wx'); // 0600 from the first byte, and never over a file made meanwhile
  } catch {
    return false;
  }
  let written = false;
  try {
    // The header says WAL (bytes 18 and 19: 2) where the image says rollback journal (1): openDb's
    // switch to WAL then finds it made instead of rewriting the header (~1 ms of every fresh start).
    const header = Buffer.from(bytes.subarray(0, 100));
    header[18] = header[19] = 2;
    writeSync(fd, header);
    writeSync(fd, bytes, 100);
    written = true;
  } finally {
    closeSync(fd);
    if (!written) rmSync(path, { force: true }); // a full disk: no half file left behind
  }
  return true;
}

/**
 * What makes a file written by writeSeedImageFile this sandbox's own, as a copy of the rows would
 * be: right after openDb, none of the build's secrets (the cursor secret; of meta only the invoice
 * counter is data) and the migrations dated now. Then, once there is a Ctx, renewSeedImageLinks.
 */
export function adoptSeedImageFile(db: Db): void {
  adoptImageFile(db);
}

/** New payment link tokens and URLs for the image's invoices, as copySeedImage makes them. */
export function renewSeedImageLinks(ctx: Ctx): void {
  renewPaymentLinks(ctx, { fromBaseUrl: SEED_IMAGE_BASE_URL });
}
