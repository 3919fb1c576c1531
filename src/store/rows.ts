import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';

/**
 * Row-level helpers shared by every table: prepared statements are cached per database and SQL
 * text (preparing costs more than running a keyed lookup), and whole-row writes keep each store
 * down to its column mapping.
 */
export type Row = Record<string, string | number | null>;

const cache = new WeakMap<Db, Map<string, Statement>>();

export function stmt(db: Db, sql: string): Statement {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
}

const rawCache = new WeakMap<Db, Map<string, { statement: Statement; columns: string[] }>>();

/**
 * A cached statement that returns rows as arrays, with its column names. Raw statements get their
 * own cache, because raw mode is a property of the statement and stmt()'s must keep returning objects.
 */
export function rawStatement(db: Db, sql: string): { statement: Statement; columns: string[] } {
  let statements = rawCache.get(db);
  if (!statements) rawCache.set(db, (statements = new Map()));
  let entry = statements.get(sql);
  if (!entry) {
    // Bounded: list pages made by SQLite put their limit in the SQL (list.ts), so a client going
    // through every limit would otherwise keep a statement per limit, filter and sort.
    if (statements.size >= 1000) statements.clear();
    const statement = db.prepare(sql).raw(true);
    statements.set(sql, (entry = { statement, columns: statement.columns().map((c) => c.name) }));
  }
  return entry;
}

/**
 * The rows of a SELECT as objects, like stmt(db, sql).all(...params), but fetched as arrays and
 * zipped with the column names here: better-sqlite3 builds row objects in C++ at about twice the
 * cost (a page of 50 deals: ~300 µs against ~180 µs), which made it the largest single cost of a
 * list request. Same objects, same key order.
 */
export function allRows(db: Db, sql: string, params: unknown[]): Row[] {
  const entry = rawStatement(db, sql);
  const { statement } = entry;
  const arrays = statement.all(...params) as (string | number | null)[][];
  // SQLite re-prepares a statement after a schema change, so `SELECT *` may widen: re-read names.
  if (arrays.length && arrays[0]!.length !== entry.columns.length) entry.columns = statement.columns().map((c) => c.name);
  const { columns } = entry;
  const rows: Row[] = new Array(arrays.length);
  for (let i = 0; i < arrays.length; i++) {
    const values = arrays[i]!;
    const row: Row = {};
    for (let j = 0; j < columns.length; j++) row[columns[j]!] = values[j]!;
    rows[i] = row;
  }
  return rows;
}

const insertCache = new WeakMap<Db, Map<string, { columns: string[]; statement: Statement }>>();

// Values are bound by position, not by name: better-sqlite3 looks each named parameter up in the
// object, which made a bulk insert of leads about 25 % slower. The statement is kept per table
// with its columns, and reused while the row has the same keys: building the SQL text and looking
// it up cost about 5 % of a bulk import.
export function insertRow(db: Db, table: string, row: Row, verb: InsertVerb = 'INSERT'): void {
  const columns = Object.keys(row);
  let tables = insertCache.get(db);
  if (!tables) insertCache.set(db, (tables = new Map()));
  const cacheKey = `${verb} ${table}`;
  let entry = tables.get(cacheKey);
  if (!entry || !sameColumns(entry.columns, columns)) {
    const sql = `${verb} INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    tables.set(cacheKey, (entry = { columns, statement: stmt(db, sql) }));
  }
  entry.statement.run(...Object.values(row));
}

/** How rows are inserted: plainly, or skipping a row whose key is taken (`INSERT OR IGNORE`). */
export type InsertVerb = 'INSERT' | 'INSERT OR IGNORE';

const ROWS_PER_INSERT = 100;

/**
 * Inserts rows that all have the same keys, a hundred per INSERT statement: one statement for many
 * rows saved about a fifth of the CPU of inserting a bulk batch's leads and events one by one.
 */
export function insertRows(db: Db, table: string, rows: Row[], verb: InsertVerb = 'INSERT'): void {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const values = `(${columns.map(() => '?').join(', ')})`;
  const many = stmt(db, `${verb} INTO ${table} (${columns.join(', ')}) VALUES ${Array(ROWS_PER_INSERT).fill(values).join(', ')}`);
  let i = 0;
  // One parameter array a statement, filled by column name: no values array a row to spread.
  const params: unknown[] = new Array(ROWS_PER_INSERT * columns.length);
  for (; i + ROWS_PER_INSERT <= rows.length; i += ROWS_PER_INSERT) {
    let p = 0;
    for (let j = i; j < i + ROWS_PER_INSERT; j++) {
      const row = rows[j]!;
      for (const column of columns) params[p++] = row[column];
    }
    many.run(params);
  }
  for (; i < rows.length; i++) insertRow(db, table, rows[i]!, verb);
}

function sameColumns(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function updateRow(db: Db, table: string, row: Row): void {
  const cols = Object.keys(row).filter((c) => c !== 'id');
  stmt(db, `UPDATE ${table} SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(...cols.map((c) => row[c]), row.id);
}

/** One row by id; through allRows, whose objects cost half of better-sqlite3's (bulk reads thousands). */
export function getRow<R = Row>(db: Db, table: string, id: string): R | undefined {
  return allRows(db, `SELECT * FROM ${table} WHERE id = ?`, [id])[0] as R | undefined;
}

export function deleteRow(db: Db, table: string, id: string): boolean {
  return stmt(db, `DELETE FROM ${table} WHERE id = ?`).run(id).changes > 0;
}

export const json = (value: unknown): string => JSON.stringify(value);
export const parseJson = <T>(text: string | null | undefined, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

/**
 * Maps a resource to its row and back: JSON columns are stored as text, booleans as 0/1, and
 * `omit` names fields that live in other tables (a client's contacts).
 */
export function rowCodec<T extends object>(spec: { json?: string[]; bool?: string[]; omit?: string[] }) {
  const jsonCols = new Set(spec.json ?? []);
  const boolCols = new Set(spec.bool ?? []);
  const omit = new Set(spec.omit ?? []);
  return {
    // Keys, not entries: a bulk import maps a thousand records a batch, and the [key, value] pair
    // arrays of Object.entries were garbage made for nothing.
    toRow(record: T): Row {
      const row: Row = {};
      const fields = record as Record<string, unknown>;
      for (const key of Object.keys(fields)) {
        if (omit.has(key)) continue;
        const value = fields[key];
        row[key] = jsonCols.has(key) ? json(value) : boolCols.has(key) ? (value ? 1 : 0) : (value as string | number | null);
      }
      return row;
    },
    fromRow(row: Row): T {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(row)) {
        const value = row[key];
        out[key] = jsonCols.has(key) ? parseJson(value as string, null) : boolCols.has(key) ? value === 1 : value;
      }
      return out as T;
    },
  };
}
