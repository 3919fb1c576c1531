import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';

/** Helpers for the bulk and sync suites. */
export const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'sync');

/**
 * Defines custom fields (POST /v1/fields), `key: type` (a select as its option values): a file's
 * custom.<key> columns fill only defined fields (docs/sync.md#custom-fields).
 */
export async function defineFields(
  api: { post(path: string, body: unknown): Promise<{ status: number; text: string }> },
  object: 'lead' | 'client' | 'deal',
  fields: Record<string, string | string[]>,
): Promise<void> {
  for (const [key, type] of Object.entries(fields)) {
    const body = Array.isArray(type)
      ? { object, key, label: key, type: 'select', options: type.map((value) => ({ value, label: value })) }
      : { object, key, label: key, type };
    const res = await api.post('/v1/fields', body);
    if (res.status !== 201) throw new Error(`POST /v1/fields ${key}: ${res.status} ${res.text}`);
  }
}

/** A CSV file as objects keyed by its header. */
export function readCsv(path: string): Record<string, string>[] {
  return parse(readFileSync(path), { columns: true, bom: true }) as Record<string, string>[];
}

/** One value from the sandbox's SQLite file, read beside the running sandbox (WAL allows a reader). */
export function dbValue<T = number>(db: string, sql: string, ...params: unknown[]): T {
  const conn = new Database(db, { readonly: true });
  try {
    return conn
      .prepare(sql)
      .pluck()
      .get(...params) as T;
  } finally {
    conn.close();
  }
}

export function dbRows<T = Record<string, unknown>>(db: string, sql: string, ...params: unknown[]): T[] {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare(sql).all(...params) as T[];
  } finally {
    conn.close();
  }
}

/**
 * Writes a leads CSV of `rows` rows, streamed. Each row has a unique email; with `externalIds`
 * also a unique external_id (prefix + row number), so counts can prove "each row exactly once".
 * With `score`, a custom.score column (0..99): the sandbox must define a `score` number field.
 */
export async function writeLeadsCsv(path: string, rows: number, options: { externalIds?: boolean; prefix?: string; score?: boolean } = {}): Promise<void> {
  const prefix = options.prefix ?? 'gen';
  const out = createWriteStream(path);
  out.write(`${options.externalIds ? 'external_id,' : ''}first_name,last_name,email,company,source,status,tags${options.score ? ',custom.score' : ''}\n`);
  for (let i = 1; i <= rows; i++) {
    const line = `${options.externalIds ? `${prefix}-${i},` : ''}First${i},Last${i},${prefix}${i}@example.com,Company ${i % 97},web,new,a|b${options.score ? `,${i % 100}` : ''}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
