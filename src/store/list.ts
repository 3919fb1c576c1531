import { decodeCursor, encodeCursor, filterFingerprint, invalidCursor } from '../domain/cursor.js';
import { customSortKey, plannedCondition, type CustomFieldList } from './custom-field-sql.js';
import type { Db } from './db.js';
import { sortKeyOf, type SortKey } from './list-sorts.js';
import { allRows, stmt, type Row } from './rows.js';
import { searchCondition } from './search-index.js';

/** One SQL condition of a list, e.g. ['status = ?', ['new']]. */
export type Condition = [sql: string, params: unknown[]];

type SortOrder = 'asc' | 'desc';

export interface ListRequest {
  table: string;
  conditions: Condition[];
  /** Everything that defines the list apart from limit, cursor and order: a cursor is bound to it. */
  filters: Record<string, unknown>;
  /** 'created' (by id), 'updated_at', or one of the table's keys in list-sorts.ts. */
  sort: string;
  order?: SortOrder | undefined;
  /** Full-text search (`q`) over the table's search index (search-index.ts). */
  search?: string | undefined;
  /**
   * Filters and a sort by custom fields, typed by their definitions (custom-field-sql.ts); their
   * parameters are among `filters` and `sort` as the request gave them, so a cursor is bound to them.
   */
  customFields?: CustomFieldList | undefined;
  limit: number;
  cursor: string | undefined;
  secret: string;
  /**
   * LIMIT as a literal, not a bound parameter: SQLite then evaluates a page's row expressions at
   * about 0.6x the cost, with the same plan and rows (measured with SQLite 3.54). Costs a prepared statement per limit (rows.ts bounds them).
   */
  inlineLimit?: boolean;
}

/**
 * Keyset pagination: WHERE (sort key) > (last row's key) ORDER BY sort key LIMIT n+1. The extra
 * row tells whether another page exists, so the last page says next_cursor: null and no page is
 * empty. Because ids grow with time, rows added while a client pages land after its position.
 */
export function listPage(db: Db, req: ListRequest): { rows: Row[]; next_cursor: string | null } {
  const query = pageQuery(db, req);
  const rows = allRows(db, `SELECT * ${query.from}`, query.params);
  if (rows.length <= req.limit) return { rows, next_cursor: null };
  rows.length = req.limit;
  return { rows, next_cursor: query.cursorAfter(rows[rows.length - 1]!) };
}

/** A page as listPage and listTableJson (list-json.ts) both read it. */
export interface PageQuery {
  /** FROM … WHERE … ORDER BY … LIMIT …, with its parameters. */
  from: string;
  params: unknown[];
  /** The ORDER BY terms, to put the page's rows in order again. */
  orderBy: string;
  /**
   * Whether SQLite sorts the matching rows rather than reading them in order from an index (a sort
   * key without one, or a search that finds few records): list-json.ts then picks the page's rows
   * before it makes their JSON.
   */
  sorts: boolean;
  /** The cursor of the page after the one that ends with `last` (the row as a Row or as the API's object). */
  cursorAfter(last: Record<string, unknown>): string;
}

/**
 * Builds a page's query. The order is by id, or by (key, id) — either way a total order that
 * the cursor's position continues exactly — ascending or, with order=desc, descending.
 */
export function pageQuery(db: Db, req: ListRequest): PageQuery {
  const order = req.order ?? 'asc';
  const customSort = req.customFields?.sort;
  const key = customSort ? customSortKey(customSort) : sortKeyOf(req.table, req.sort);
  const fingerprint = filterFingerprint({ ...req.filters, table: req.table, sort: order === 'desc' ? `${req.sort} desc` : req.sort });
  const keySql = key && sortKeySql(key, order);
  const conditions = [...req.conditions];
  let sorts = key !== undefined && !key.indexed;
  for (const filter of req.customFields?.filters ?? []) {
    const planned = plannedCondition(db, req.table, filter, {
      byId: key === undefined,
      inIndexOrder: !sorts,
      sortKey: customSort?.key,
      // The side of the sort key a cursor bounds: from below ascending, from above descending.
      cursorBound: req.cursor === undefined ? undefined : order === 'desc' ? 'lte' : 'gte',
    });
    conditions.push(planned.condition);
    sorts ||= planned.sorts;
  }
  if (req.search !== undefined) {
    // A search in the order of an index walks the index when the words match many records (the
    // page fills after a few), and sorts the matches when they are few.
    const search = searchCondition(db, req.table, req.search, !sorts);
    conditions.push(search.condition);
    sorts ||= search.sorts;
  }
  const [compare, direction] = order === 'desc' ? ['<', ' DESC'] : ['>', ''];
  if (req.cursor !== undefined) {
    const { after } = decodeCursor(req.secret, fingerprint, req.cursor);
    if (after.length !== (keySql ? 2 : 1) || typeof after[after.length - 1] !== 'string') throw invalidCursor('The cursor is malformed.');
    conditions.push(!keySql ? [`id ${compare} ?`, after] : cursorCondition(keySql, key!, compare, after));
  }
  const { where, params } = whereClause(conditions);
  const orderBy = keySql ? `${keySql}${direction}, id${direction}` : `id${direction}`;
  if (!Number.isSafeInteger(req.limit) || req.limit < 1) throw new Error(`pageQuery: limit ${req.limit}`);
  if (!req.inlineLimit) params.push(req.limit + 1);
  return {
    from: `FROM ${req.table} ${where} ORDER BY ${orderBy} LIMIT ${req.inlineLimit ? req.limit + 1 : '?'}`,
    params,
    orderBy,
    sorts,
    cursorAfter(last) {
      const id = String(last.id);
      if (!keySql) return encodeCursor(req.secret, fingerprint, { after: [id] });
      // The key as SQLite compares it (NULL made a bound, a money amount as its number), read
      // from the row itself unless the returned object carries it as is.
      const value = key!.member ? String(last[key!.member]) : (stmt(db, `SELECT ${keySql} FROM ${req.table} WHERE id = ?`).pluck().get(id) as string | number);
      return encodeCursor(req.secret, fingerprint, { after: [value, id] });
    },
  };
}

/** Rows after the cursor's (key, id), in the direction `compare` says. */
function cursorCondition(keySql: string, key: SortKey, compare: string, after: unknown[]): Condition {
  if (!key.expression) return [`(${keySql}, id) ${compare} (?, ?)`, after];
  // The row value written out, with a bound on the key alone that SQLite seeks the index to.
  const [value, id] = after;
  return [`${keySql} ${compare}= ? AND (${keySql} ${compare} ? OR id ${compare} ?)`, [value, value, id]];
}

/**
 * A sort key as the SQL that orders and compares rows: never NULL (rows without a value come last
 * in either direction), and text compared without case, as people sort names.
 */
function sortKeySql(key: SortKey, order: SortOrder): string {
  // U+10FFFF sorts after every other text; '' before.
  const sql = key.nullable ? `coalesce(${key.sql}, ${order === 'asc' ? 'char(1114111)' : "''"})` : key.sql;
  return key.text ? `${sql} COLLATE NOCASE` : sql;
}

/** Conditions for the filters that leads, clients and deals share (docs/reference/basics.md#lists-and-pagination). */
/** Conditions joined into a WHERE clause (empty without any), and their parameters in order. */
export function whereClause(conditions: readonly Condition[]): { where: string; params: unknown[] } {
  return {
    where: conditions.length ? `WHERE ${conditions.map(([sql]) => `(${sql})`).join(' AND ')}` : '',
    params: conditions.flatMap(([, p]) => p),
  };
}

export function commonConditions(q: {
  created_after?: string | undefined;
  updated_after?: string | undefined;
  external_id?: string | undefined;
  email?: string | undefined;
  tag?: string | undefined;
  ids?: string | undefined;
}): Condition[] {
  const out: Condition[] = [];
  // One statement for any number of ids (json_each), not one per count of placeholders.
  if (q.ids !== undefined) out.push(['id IN (SELECT value FROM json_each(?))', [JSON.stringify(q.ids.split(','))]]);
  if (q.created_after) out.push(['created_at > ?', [new Date(q.created_after).toISOString()]]);
  if (q.updated_after) out.push(['updated_at > ?', [new Date(q.updated_after).toISOString()]]);
  if (q.external_id !== undefined) out.push(['external_id = ?', [q.external_id]]);
  if (q.email !== undefined) out.push(['email = ? COLLATE NOCASE', [q.email]]);
  if (q.tag !== undefined) out.push(['EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ?)', [q.tag]]);
  return out;
}

/** A list request as the routes parse it: limit and cursor, maybe a sort, an order and a search, and the filters. */
export interface ListQuery {
  limit: number;
  cursor?: string | undefined;
  sort?: string;
  order?: SortOrder;
  q?: string | undefined;
  [filter: string]: unknown;
}

/**
 * Splits a list query into the request pageQuery reads. Every field beyond limit, cursor, sort and
 * order (the search `q` included) is a filter that binds the cursor, so a cursor only continues the
 * list it came from.
 */
export function listRequest(table: string, query: ListQuery, conditions: Condition[], secret: string, customFields?: CustomFieldList): ListRequest {
  const { limit, cursor, sort = 'created', order, ...filters } = query;
  return { table, conditions, filters, sort, order, search: query.q, limit, cursor, secret, customFields };
}

/** One page of a table as the API returns it, its rows mapped by `map`. */
export function listTable<T>(
  db: Db,
  secret: string,
  table: string,
  query: ListQuery,
  conditions: Condition[],
  map: (rows: Row[]) => T[],
): { data: T[]; next_cursor: string | null } {
  const page = listPage(db, listRequest(table, query, conditions, secret));
  return { data: map(page.rows), next_cursor: page.next_cursor };
}
