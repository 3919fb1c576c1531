import type { CustomFieldList } from './custom-field-sql.js';
import type { Db } from './db.js';
import { listRequest, pageQuery, type Condition, type ListQuery } from './list.js';
import { totalChanges } from './records.js';
import { rawStatement } from './rows.js';

/**
 * List pages as JSON made by SQLite: each row as one json_object(), the page as one BLOB, instead
 * of 16 JS strings per row made into an object, its JSON columns parsed, and the page serialised
 * again: a third of the server CPU a page costs otherwise, where an export spends most of its
 * server CPU (docs/benchmarks-history.md). Each item parses to exactly what rowCodec.fromRow gives
 * for the same row (test/unit/list-json.test.ts).
 */

/** A response body that is JSON already, as UTF-8 bytes: the list routes send it as it is. */
export class JsonBody {
  constructor(readonly bytes: Buffer) {}
  /** So that a serialiser that does not know JsonBody still writes the same JSON (just slower). */
  toJSON(): unknown {
    return JSON.parse(this.bytes.toString('utf8'));
  }
}

/** How a table's row becomes its API object: as for rowCodec, plus members computed in SQL. */
export interface RowJsonSpec {
  table: string;
  /** Columns holding JSON text, embedded as JSON (like rowCodec's `json`). */
  json?: readonly string[];
  /** 0/1 columns, as true/false (like rowCodec's `bool`). */
  bool?: readonly string[];
  /**
   * Columns shown otherwise, in their place: column → [member name, SQL expression of its value]
   * (a number, text, or json(…) for JSON text), or null to leave the column out.
   */
  replace?: Readonly<Record<string, readonly [name: string, sql: string] | null>>;
  /** More members after the columns: name → SQL expression giving JSON text (may use `alias`). */
  extra?: Readonly<Record<string, string>>;
  /** How the table is named in the surrounding SQL (an alias in a subquery); the table by default. */
  alias?: string;
}

/**
 * `make(db)` made once per database: for the row expressions below, which read the table's
 * columns (an account's database is another database: accounts/registry.ts).
 */
export function perDb<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) made.set(db, (value = make(db)));
    return value;
  };
}

/**
 * The SQL expression that gives a row's JSON object: every column in table order (the key order
 * of SELECT * and so of fromRow). Only TEXT columns are serialised by SQLite as JS would: it
 * prints a REAL its own way (1.0, 1.0e-07, 17 digits where JS needs 16) and an INTEGER beyond
 * 2^53 exactly, so other types are refused unless declared bool or json, or replaced by an
 * expression that says how (store/deals.ts, store/money-sql.ts).
 */
export function rowJsonSql(db: Db, spec: RowJsonSpec): string {
  const columns = db.prepare(`PRAGMA table_info(${spec.table})`).all() as { name: string; type: string }[];
  if (columns.length === 0) throw new Error(`rowJsonSql: no table ${spec.table}`);
  const at = `"${spec.alias ?? spec.table}"`;
  const members = columns.flatMap(({ name, type }) => {
    const column = `${at}."${name}"`;
    const replaced = spec.replace?.[name];
    if (replaced !== undefined) return replaced === null ? [] : [`'${replaced[0]}', ${replaced[1]}`];
    // parseJson() gives null for NULL and for '' alike; json('') would be an error. (iif, not
    // nullif(): the same, but nullif cost ~15 % more of the whole query.)
    if (spec.json?.includes(name)) return `'${name}', iif(${column} = '', NULL, json(${column}))`;
    if (spec.bool?.includes(name)) return `'${name}', json(iif(${column} IS 1, 'true', 'false'))`;
    if (type.toUpperCase() !== 'TEXT') throw new Error(`rowJsonSql: ${spec.table}.${name} is ${type}, not TEXT, bool or json`);
    return `'${name}', ${column}`;
  });
  for (const [name, sql] of Object.entries(spec.extra ?? {})) members.push(`'${name}', json(${sql})`);
  return `json_object(${members.join(', ')})`;
}

const NEWLINE = 0x0a;
const COMMA = 0x2c;
const OPEN = Buffer.from('{"data":[');

/**
 * One page of a table as the JSON of `{ data, next_cursor }`: the same page, cursor and errors as
 * listTable (both go through pageQuery), with each row as `rowJson` makes it (its `?` bound to
 * rowJsonParams), which must include the row's id, and its updated_at when sorted by it.
 *
 * The rows come back as one BLOB, joined by newlines (json_object() and json_quote() escape
 * control characters, and stored JSON has none raw, so a newline only ever separates rows): one Buffer instead of a JS string per row, and no 400 KB
 * string to flatten and encode again for the socket. The
 * newline after the last row of the page tells where the extra row (LIMIT n+1) starts, and that
 * last row alone is parsed for the next cursor. group_concat takes the rows in the order the
 * subquery gives them (it runs as a co-routine); an ORDER BY inside group_concat would sort them
 * a second time (+1 ms).
 *
 * When SQLite sorts the matching rows (a sort key without an index, a search: PageQuery.sorts), the
 * page's rowids are picked first and only their rows made JSON: a sort keeps its candidates' whole
 * result rows, so a JSON made per candidate cost 600 ms for a descending page of 100k matches.
 */
export function listTableJson(
  db: Db,
  secret: string,
  table: string,
  query: ListQuery,
  conditions: Condition[],
  rowJson: string,
  rowJsonParams: unknown[] = [],
  customFields?: CustomFieldList,
): JsonBody {
  const page = pageQuery(db, { ...listRequest(table, query, conditions, secret, customFields), inlineLimit: true });
  const rowsSql = page.sorts ? `FROM ${table} WHERE rowid IN (SELECT rowid ${page.from}) ORDER BY ${page.orderBy}` : page.from;
  const sql = `SELECT CAST(group_concat(j, char(10)) AS BLOB), count(*) FROM (SELECT ${rowJson} AS j ${rowsSql})`;
  const params = [...rowJsonParams, ...page.params];
  const cache = pageCache(db);
  const key = `${secret}\u0000${sql}\u0000${JSON.stringify(params)}`;
  const made = cache.pages.get(key);
  if (made) return new JsonBody(made);
  const body = makePage(db, sql, params, query.limit, page.cursorAfter);
  remember(cache, key, body);
  return new JsonBody(body);
}

function makePage(db: Db, sql: string, params: unknown[], limit: number, cursorAfter: (last: Record<string, unknown>) => string): Buffer {
  const [rows, count] = rawStatement(db, sql).statement.get(...params) as [Buffer | null, number];
  let data = rows ?? Buffer.alloc(0);
  let next = 'null';
  if (count > limit) {
    data = data.subarray(0, data.lastIndexOf(NEWLINE));
    const last = JSON.parse(data.toString('utf8', data.lastIndexOf(NEWLINE) + 1)) as Record<string, unknown>;
    next = JSON.stringify(cursorAfter(last));
  }
  for (let at = data.indexOf(NEWLINE); at !== -1; at = data.indexOf(NEWLINE, at + 1)) data[at] = COMMA;
  return Buffer.concat([OPEN, data, Buffer.from(`],"next_cursor":${next}}`)]);
}

/**
 * Pages already made, per database, kept while nothing in the database changes: the same page asked
 * again (a dashboard refreshing, a client polling, a test suite) is sent without running its query.
 * "Nothing changed" is SQLite's own count of the rows this connection has inserted, updated or
 * deleted (total_changes(): triggers included, rolled-back writes too; 0.2 µs to ask): every write
 * of the sandbox goes through its one connection to the file, and any write to any table empties
 * the cache (but the bookkeeping writes, below, to tables no page reads), so a page is never
 * older than the sandbox's data. A commit by another process on the same file (someone's sqlite3
 * shell) moves SQLite's data_version instead, which costs a read lock to ask (~2.5 µs, more than
 * the rest of a cached answer), so it is asked at most every FOREIGN_CHECK_MS: such a write shows
 * in lists within that time.
 * The key is everything the page is made of: the statement (its filters, order and limit), its
 * parameters (the cursor's position, bound values such as the payment links' base URL) and the
 * secret the next cursor is signed with. Bounded in bytes; a page larger than PAGE_MAX_BYTES (an
 * export's pages of 1000) is not kept.
 */
interface PageCache {
  /** The connection's total_changes() less its bookkeeping writes' (bookkeepingWrite below). */
  changes: number;
  dataVersion: number;
  checkedAt: number;
  pages: Map<string, Buffer>;
  bytes: number;
}
const CACHE_MAX_BYTES = 4 * 1024 * 1024;
const PAGE_MAX_BYTES = 256 * 1024;
const FOREIGN_CHECK_MS = 100;
const caches = new WeakMap<Db, PageCache>();

const dataVersionOf = (db: Db) => (rawStatement(db, 'SELECT data_version FROM pragma_data_version').statement.get() as [number])[0];

/** Per database, the rows written by bookkeepingWrite(): not changes of any listed data. */
const bookkeepingChanges = new WeakMap<Db, number>();

/**
 * Runs a write to a table no kept page is made of (the request log, the usage counters, a key's
 * last use) without emptying the page cache. Under load the request log alone is written every
 * 50 ms, and each of those writes used to drop every kept page: at 300 requests a second, one
 * list request in ~15 ran its query again (docs/benchmarks.md). Only for writes that cannot change a page
 * of leads, clients, deals, invoices or events.
 */
export function bookkeepingWrite<T>(db: Db, write: () => T): T {
  const before = totalChanges(db);
  try {
    return write();
  } finally {
    bookkeepingChanges.set(db, (bookkeepingChanges.get(db) ?? 0) + totalChanges(db) - before);
  }
}

function pageCache(db: Db): PageCache {
  const changes = totalChanges(db) - (bookkeepingChanges.get(db) ?? 0);
  const now = performance.now();
  let cache = caches.get(db);
  if (cache && cache.changes === changes && now - cache.checkedAt < FOREIGN_CHECK_MS) return cache;
  const dataVersion = dataVersionOf(db);
  if (cache && cache.changes === changes && cache.dataVersion === dataVersion) {
    cache.checkedAt = now;
    return cache;
  }
  caches.set(db, (cache = { changes, dataVersion, checkedAt: now, pages: new Map(), bytes: 0 }));
  return cache;
}

function remember(cache: PageCache, key: string, body: Buffer): void {
  if (body.length > PAGE_MAX_BYTES) return;
  if (cache.bytes + body.length > CACHE_MAX_BYTES) {
    cache.pages.clear();
    cache.bytes = 0;
  }
  cache.pages.set(key, body);
  cache.bytes += body.length;
}
