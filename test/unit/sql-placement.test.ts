import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * SQL lives in src/store/ (docs/architecture.md): one place knows each table, so a change to an
 * account's schema (custom fields, pipelines) has one folder to change. The folders below hold
 * none: no statement, no SQL text, only calls to named store functions. Add a folder to the list
 * once its SQL has moved.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const GUARDED = ['src/services'];

/** What gives SQL away: running it (stmt, prepare, exec) or writing it (a statement's keywords). */
const SIGNS: { what: string; pattern: RegExp }[] = [
  { what: 'a prepared statement (stmt, allRows, rawStatement)', pattern: /\b(?:stmt|allRows|rawStatement)\(/ },
  { what: 'db.prepare()', pattern: /\.prepare\(/ },
  { what: 'db.exec()', pattern: /\bdb\.exec\(/ },
  { what: 'db.pragma()', pattern: /\bdb\.pragma\(/ },
  { what: 'a SELECT', pattern: /\bSELECT\s/ },
  { what: 'an INSERT', pattern: /\bINSERT\s+(?:OR\s+\w+\s+)?INTO\b/ },
  { what: 'an UPDATE', pattern: /\bUPDATE\s+\w+\s+SET\b/ },
  { what: 'a DELETE', pattern: /\bDELETE\s+FROM\b/ },
];

function typescriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? typescriptFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The code without its comments (a comment may well talk about a SELECT), lines kept in place. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Each line of `text` that shows SQL, as `line: what`. */
export function sqlIn(text: string): string[] {
  return code(text)
    .split('\n')
    .flatMap((line, i) => SIGNS.filter((sign) => sign.pattern.test(line)).map((sign) => `${i + 1}: ${sign.what}`));
}

describe('SQL placement', () => {
  it('finds SQL however it is written', () => {
    expect(sqlIn("const n = stmt(ctx.db, 'SELECT count(*) FROM leads').pluck().get();")).toHaveLength(2);
    expect(sqlIn('db.prepare(sql)')).toHaveLength(1);
    expect(sqlIn('ctx.db.exec(sql)')).toHaveLength(1);
    expect(sqlIn('const sql = `INSERT OR IGNORE INTO ${table} (a) VALUES (?)`;')).toHaveLength(1);
    expect(sqlIn("run('UPDATE leads SET status = ? WHERE id = ?')")).toHaveLength(1);
    expect(sqlIn('run("DELETE FROM leads WHERE id = ?")')).toHaveLength(1);
  });

  it('lets comments, regular expressions and HTTP methods be', () => {
    expect(sqlIn('// SELECT * FROM leads is what this replaced\n/* DELETE FROM leads */')).toEqual([]);
    expect(sqlIn("const quoted = /^\"(.*)\"$/.exec(header);\nconst method = 'DELETE';\nconst url = 'http://x/'; // UPDATE leads SET")).toEqual([]);
  });

  it.each(GUARDED)('%s holds no SQL: it calls the store', (folder) => {
    const found = typescriptFiles(join(ROOT, folder)).flatMap((file) => sqlIn(readFileSync(file, 'utf8')).map((where) => `${relative(ROOT, file)}:${where}`));
    expect(found, 'move these statements into a named function of src/store/').toEqual([]);
  });
});
