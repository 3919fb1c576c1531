import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * SQL lives in src/store/ (docs/architecture.md, "Layers"). The accounts, the start-up, the
 * seeding and the webhook delivery call store functions instead of writing SQL of their own: no
 * SQL text, and no statement helpers of store/rows.ts (a type such as Row may be imported).
 */
const FOLDERS = ['accounts', 'sandbox', 'seed', 'webhooks'];
const SRC = new URL('../../src/', import.meta.url).pathname;

/** A string or template literal that starts a statement (lines are read one by one: a keyword is enough). */
const SQL_TEXT =
  /(['"`])\s*(SELECT\s|INSERT\s+(OR\s+\w+\s+)?INTO\b|DELETE\s+FROM\b|UPDATE\s+[a-z_]+\b|PRAGMA\b|ATTACH\s+DATABASE\b|DETACH\s+DATABASE\b|VACUUM\b|CREATE\s+(TABLE|INDEX|TRIGGER)\b|DROP\s+TABLE\b)/;
/** A value (not `type`) import of the statement helpers. */
const STATEMENT_HELPERS =
  /import\s*\{[^}]*\b(?<!type\s)(stmt|allRows|insertRows|insertRow|rawStatement|updateRow|getRow|deleteRow)\b[^}]*\}\s*from\s*'[./]*store\/rows\.js'/;
/** Calls on a database handle that run SQL. */
const DB_CALLS = /\b(db|image|registry)\.(exec|prepare|pragma)\(/;

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function findings(folder: string): string[] {
  const dir = join(SRC, folder);
  const found: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const lines = withoutComments(readFileSync(join(dir, file), 'utf8')).split('\n');
    lines.forEach((line, i) => {
      if (SQL_TEXT.test(line) || STATEMENT_HELPERS.test(line) || DB_CALLS.test(line)) found.push(`src/${folder}/${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

describe('SQL placement below the HTTP layer', () => {
  for (const folder of FOLDERS) {
    it(`src/${folder}/ holds no SQL (it calls src/store/)`, () => {
      expect(findings(folder)).toEqual([]);
    });
  }

  it('recognises SQL where there is some', () => {
    // The patterns above must find what they look for, or the checks pass for nothing.
    const store = ['account-registry.ts', 'snapshot-files.ts', 'seed-fill.ts', 'webhook-queue.ts'].map((f) =>
      withoutComments(readFileSync(join(SRC, 'store', f), 'utf8')),
    );
    expect(store.every((text) => SQL_TEXT.test(text))).toBe(true);
    expect(STATEMENT_HELPERS.test("import { allRows, stmt } from '../store/rows.js';")).toBe(true);
    expect(STATEMENT_HELPERS.test("import type { Row } from '../store/rows.js';")).toBe(false);
    expect(DB_CALLS.test("db.exec('DETACH DATABASE snap');")).toBe(true);
  });
});
