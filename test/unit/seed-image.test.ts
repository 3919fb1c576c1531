import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_TABLES } from '../../src/store/tables.js';
import {
  adoptSeedImageFile,
  copySeedImage,
  markWholeFileImage,
  renewSeedImageLinks,
  SEED_IMAGE_BASE_URL,
  wholeFileMark,
  writeSeedImageFile,
} from '../../src/seed/seed-image.js';
import { seed } from '../../src/seed/seed.js';
import { createContext, type Ctx } from '../../src/services/context.js';
import { inTransaction } from '../../src/services/transactions.js';
import { migrationNames, openDb } from '../../src/store/db.js';

/**
 * A fresh sandbox copies the default seed's rows from the image the build made
 * (dist/sandbox/seed-1.sqlite, by scripts/build-seed-image.mjs) instead of seeding: the result must
 * be what seeding gives, row for row, rowids included (search rows are keyed by the client's rowid),
 * except that payment tokens are secrets of each sandbox, on its own URL.
 */
const image = readFileSync(new URL('../../dist/sandbox/seed-1.sqlite', import.meta.url));
const BASE = 'http://sandbox.test:4321';
const context = () => createContext(openDb(':memory:'), () => BASE);
const seeded = context();
inTransaction(seeded, () => seed(seeded, 1));
const copied = context();
const copiedAgain = context();
afterAll(() => [seeded, copied, copiedAgain].forEach((c) => c.db.close()));

const tokens = (ctx: Ctx) =>
  ctx.db.prepare('SELECT id, payment_token FROM invoices WHERE payment_token IS NOT NULL ORDER BY id').raw(true).all() as [string, string][];
/** A table's rows with each payment token replaced by a name for its invoice (tokens are random). */
function dump(ctx: Ctx, sql: string): unknown[] {
  const names = tokens(ctx);
  return (ctx.db.prepare(sql).raw(true).all() as unknown[][]).map((row) =>
    row.map((cell) => (typeof cell === 'string' ? names.reduce((text, [id, token]) => text.replaceAll(token, `<token of ${id}>`), cell) : cell)),
  );
}

describe('the seed image', () => {
  it('gives the same rows as seeding, in every table seeding writes', () => {
    expect(inTransaction(copied, () => copySeedImage(copied, image))).toBe(true);
    for (const table of DATA_TABLES) {
      const rows = dump(seeded, `SELECT rowid, * FROM ${table} ORDER BY rowid`);
      expect(rows.length, table).toBeGreaterThan(0);
      expect(dump(copied, `SELECT rowid, * FROM ${table} ORDER BY rowid`), table).toEqual(rows);
    }
    expect(dump(copied, "SELECT value FROM meta WHERE key = 'invoice_seq'")).toEqual(dump(seeded, "SELECT value FROM meta WHERE key = 'invoice_seq'"));
    // Search rows are marked by the triggers, as when seeding, and made before the copy commits: the
    // same terms under the same rowids (the tables are contentless: their terms are what can be read).
    for (const name of ['client', 'lead', 'deal', 'invoice']) {
      for (const ctx of [seeded, copied]) ctx.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name}_terms USING fts5vocab(main, ${name}_search, instance)`);
      const terms = `SELECT term, doc, offset FROM ${name}_terms ORDER BY doc, offset`;
      expect(dump(seeded, terms).length, name).toBeGreaterThan(0);
      expect(dump(copied, terms), name).toEqual(dump(seeded, terms));
      expect(dump(copied, `SELECT count(*) FROM ${name}_search_stale`)).toEqual([[0]]);
      // And each is what the record's source gives, so a search finds the record.
      expect(dump(copied, `SELECT count(*) FROM ${name}_search_source`)).toEqual(dump(copied, `SELECT count(DISTINCT doc) FROM ${name}_terms`));
    }
  });

  it('gives every sandbox payment tokens of its own, in links on its own URL', () => {
    inTransaction(copiedAgain, () => copySeedImage(copiedAgain, image));
    const mine = tokens(copied);
    expect(mine.length).toBeGreaterThan(10);
    const original = openDb(image);
    const fromImage = new Set(original.prepare('SELECT payment_token FROM invoices WHERE payment_token IS NOT NULL').pluck().all() as string[]);
    original.close();
    for (const [id, token] of mine) {
      expect(fromImage.has(token)).toBe(false);
      expect(tokens(copiedAgain).find(([other]) => other === id)![1]).not.toBe(token);
      const link = `${BASE}/pay/${token}`;
      const events = copied.db.prepare("SELECT data FROM events WHERE object_id = ? AND data LIKE '%payment_link%'").pluck().all(id) as string[];
      expect(events.every((data) => JSON.parse(data).payment_link === link || JSON.parse(data).payment_link === null)).toBe(true);
    }
    const stale = `%${new URL(SEED_IMAGE_BASE_URL).hostname}%`;
    expect(copied.db.prepare('SELECT count(*) FROM events WHERE data LIKE ? OR previous_attributes LIKE ?').pluck().get(stale, stale)).toBe(0);
    expect(copied.db.prepare('SELECT count(*) FROM mailbox WHERE body LIKE ?').pluck().get(stale)).toBe(0);
    expect(copied.db.prepare('SELECT count(*) FROM mailbox WHERE body LIKE ?').pluck().get(`%${BASE}/pay/%`)).toBeGreaterThan(10);
  });

  it('is not used when it was made for other migrations: nothing is written', () => {
    const other = openDb(image);
    other.exec('DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)');
    const stale = other.serialize();
    other.close();
    const ctx = context();
    expect(inTransaction(ctx, () => copySeedImage(ctx, stale))).toBe(false);
    expect(dump(ctx, 'SELECT count(*) FROM leads')).toEqual([[0]]);
    expect(copySeedImage(ctx, undefined)).toBe(false);
    ctx.db.close();
  });
});

/** A new sandbox file is the image written whole (docs/benchmarks.md): the same as the rows copied into a migrated file. */
describe('the seed image as a new file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crm-seed-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the rows seeding gives, a fresh meta, its own payment links, and a private file', () => {
    const path = join(dir, 'new', 'sandbox.db');
    expect(writeSeedImageFile(path, image)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const written = readFileSync(path);
    expect([written[18], written[19]]).toEqual([2, 2]); // in WAL mode from its first byte; the rest is the image
    expect(Buffer.compare(written.subarray(100), image.subarray(100))).toBe(0);
    const db = openDb(path);
    adoptSeedImageFile(db);
    const ctx = createContext(db, () => BASE);
    renewSeedImageLinks(ctx);
    try {
      for (const table of DATA_TABLES)
        expect(dump(ctx, `SELECT rowid, * FROM ${table} ORDER BY rowid`), table).toEqual(dump(seeded, `SELECT rowid, * FROM ${table} ORDER BY rowid`));
      // The build's cursor secret is not this sandbox's: of meta only the invoice counter is data.
      const seq = "SELECT value FROM meta WHERE key = 'invoice_seq'";
      expect(dump(ctx, seq)).toEqual(dump(seeded, seq));
      const secret = "SELECT value FROM meta WHERE key = 'cursor_secret'";
      const inImage = openDb(image);
      expect(inImage.prepare(secret).pluck().get()).toEqual(expect.any(String));
      expect(db.prepare(secret).pluck().get()).not.toBe(inImage.prepare(secret).pluck().get());
      inImage.close();
      expect(db.prepare('SELECT name FROM schema_migrations ORDER BY version').pluck().all()).toEqual(migrationNames());
      const applied = db.prepare('SELECT min(applied_at) FROM schema_migrations').pluck().get() as string;
      expect(Date.now() - Date.parse(applied)).toBeLessThan(60_000);
      const original = openDb(image);
      const fromImage = new Set(original.prepare('SELECT payment_token FROM invoices WHERE payment_token IS NOT NULL').pluck().all() as string[]);
      original.close();
      expect(tokens(ctx).length).toBeGreaterThan(10);
      expect(tokens(ctx).filter(([, token]) => fromImage.has(token))).toEqual([]);
      const stale = `%${new URL(SEED_IMAGE_BASE_URL).hostname}%`;
      expect(db.prepare('SELECT count(*) FROM events WHERE data LIKE ? OR previous_attributes LIKE ?').pluck().get(stale, stale)).toBe(0);
      expect(db.prepare('SELECT count(*) FROM mailbox WHERE body LIKE ?').pluck().get(`%${BASE}/pay/%`)).toBeGreaterThan(10);
      // The image's search rows came with it, made when it was seeded: none is left for a search to make.
      for (const name of ['client', 'lead', 'deal', 'invoice']) expect(db.prepare(`SELECT count(*) FROM ${name}_search_stale`).pluck().get(), name).toBe(0);
      ctx.db.exec('CREATE VIRTUAL TABLE temp.client_terms_file USING fts5vocab(main, client_search, instance)');
      seeded.db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.client_terms_file USING fts5vocab(main, client_search, instance)');
      const terms = 'SELECT term, doc, offset FROM client_terms_file ORDER BY doc, offset';
      expect(dump(ctx, terms)).toEqual(dump(seeded, terms));
    } finally {
      db.close();
    }
  });

  it('writes nothing for other migrations, and never over a file that exists', () => {
    // An image the build made for other migrations carries their mark (and its schema_migrations
    // says so too: the build marks only what matches the migrations it has).
    const other = openDb(image);
    other.exec('DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)');
    expect(markWholeFileImage(other)).toBe(false);
    expect(other.pragma('user_version', { simple: true })).toBe(0);
    const unmarked = other.serialize();
    other.pragma(`user_version = ${wholeFileMark(migrationNames().slice(0, -1))}`);
    const stale = other.serialize();
    other.close();
    const path = join(dir, 'stale.db');
    for (const bytes of [stale, unmarked, undefined, Buffer.from('not a database at all, but long enough to have a header '.repeat(4))]) {
      expect(writeSeedImageFile(path, bytes)).toBe(false);
      expect(existsSync(path)).toBe(false);
    }
    // Rows where the row copy would not take them from (say, a seeded webhook secret): the build
    // leaves such an image unmarked, and it is not written whole.
    const withSecret = openDb(image);
    withSecret.exec("CREATE TABLE seeded_secrets (value TEXT); INSERT INTO seeded_secrets VALUES ('whsec_same_for_everyone')");
    expect(markWholeFileImage(withSecret)).toBe(false);
    const secretImage = withSecret.serialize();
    withSecret.close();
    expect(writeSeedImageFile(path, secretImage)).toBe(false);
    expect(existsSync(path)).toBe(false);
    writeFileSync(path, 'made meanwhile');
    expect(writeSeedImageFile(path, image)).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('made meanwhile');
  });

  it('the build marked its image for this build, and a sandbox file made from it does not keep the mark', () => {
    expect(image.readInt32BE(60)).toBe(wholeFileMark());
    expect(wholeFileMark()).not.toBe(wholeFileMark(migrationNames().slice(0, -1)));
    const path = join(dir, 'marked.db');
    expect(writeSeedImageFile(path, image)).toBe(true);
    const db = openDb(path);
    adoptSeedImageFile(db);
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    db.close();
  });
});
