import type { CustomFieldOp } from '../domain/custom-field-query.js';
import { FIELD_KEY, type FieldObject, type FieldType } from '../domain/custom-fields.js';
import type { Db } from './db.js';
import { FIELD_OBJECT_TABLES } from './tables.js';
import type { Condition } from './list.js';
import type { SortKey } from './list-sorts.js';
import { stmt } from './rows.js';

/**
 * Lists filtered and sorted by a custom field (docs/reference/custom-fields.md#lists), and the index
 * each field has for them: `<table> (<value>, id)`, where <value> is the field's value as SQL
 * (valueSql). SQLite uses an index on an expression only for a query that repeats that expression
 * exactly, so every filter and sort below is written with valueSql, verbatim.
 */

/** A filter by one field, its value typed by the field's definition (services/custom-field-filters.ts). */
export interface CustomFieldFilter {
  key: string;
  type: FieldType;
  op: CustomFieldOp;
  /** A number for number fields, 1 or 0 for booleans, text otherwise. */
  value: string | number;
}

export interface CustomFieldSort {
  key: string;
  type: FieldType;
}

/** What a list asks of custom fields, resolved against their definitions. */
export interface CustomFieldList {
  filters: CustomFieldFilter[];
  sort?: CustomFieldSort | undefined;
}

/** Text people sort without regard to case, as the built-in names sort (SQLite's NOCASE: ASCII letters). */
const TEXT_LIKE: readonly FieldType[] = ['text', 'long_text', 'email', 'url', 'phone'];

/** U+10FFFF: sorts after every number and every other text; a record without a value has it. */
const NO_VALUE = 'char(1114111)';

/** A multi_select value is a list: "contains" is no comparison an index on the value can answer. */
const hasIndex = (type: FieldType): boolean => type !== 'multi_select';

const checkedKey = (key: string): string => {
  // Keys are part of SQL text (an index's name, a JSON path): only ever [a-z][a-z0-9_]*.
  if (!FIELD_KEY.test(key)) throw new Error(`custom-field-sql: unsafe field key '${key}'`);
  return key;
};

const jsonPath = (key: string) => `'$."${checkedKey(key)}"'`;

/**
 * The field's value as the index holds it: never NULL (a record without a value, or with JSON null,
 * has U+10FFFF, so it sorts last in ascending order and a row-value comparison never meets a NULL),
 * and text-like types compared without case. A record whose custom_fields is not JSON at all counts
 * as one without values rather than making every write to its table fail on the index.
 */
function valueSql(key: string, type: FieldType): string {
  const value = `coalesce(json_extract(iif(json_valid(custom_fields), custom_fields, '{}'), ${jsonPath(key)}), ${NO_VALUE})`;
  return TEXT_LIKE.includes(type) ? `${value} COLLATE NOCASE` : value;
}

/** The index's name: keys are unique per object, and safe in SQL (checkedKey). */
const indexName = (object: FieldObject, key: string) => `${FIELD_OBJECT_TABLES[object]}_cf_${checkedKey(key)}`;

/** Makes the field's index, unless its type has none (multi_select). Reads every record of the object once. */
export function createFieldIndex(db: Db, object: FieldObject, key: string, type: FieldType): void {
  if (!hasIndex(type)) return;
  db.exec(`CREATE INDEX IF NOT EXISTS ${indexName(object, key)} ON ${FIELD_OBJECT_TABLES[object]} (${valueSql(key, type)}, id)`);
}

export function dropFieldIndex(db: Db, object: FieldObject, key: string): void {
  db.exec(`DROP INDEX IF EXISTS ${indexName(object, key)}`);
}

/** A field whose type changed: its index again, for the new type (or none). */
export function remakeFieldIndex(db: Db, object: FieldObject, key: string, type: FieldType): void {
  dropFieldIndex(db, object, key);
  createFieldIndex(db, object, key, type);
}

/** Every defined field's index (migration 023: the fields defined before indexes were made). */
export function createAllFieldIndexes(db: Db): void {
  const fields = db.prepare('SELECT object, key, type FROM fields').all() as { object: FieldObject; key: string; type: FieldType }[];
  for (const { object, key, type } of fields) createFieldIndex(db, object, key, type);
}

/**
 * A filter as a condition. The bounds of a range keep to the values of the field's kind: SQLite orders
 * every number before every text, so `>= 10` alone would also take texts and records without a value.
 */
function conditionOf({ key, type, op, value }: CustomFieldFilter, index: boolean, boundIndexed = index): Condition {
  if (type === 'multi_select') {
    // json_each of a single value (a select that became multi_select elsewhere) is that value.
    return [`EXISTS (SELECT 1 FROM json_each(iif(json_valid(custom_fields), custom_fields, '{}'), ${jsonPath(key)}) WHERE value = ?)`, [value]];
  }
  // `+` keeps SQLite from reading the matches through the field's index (see plannedCondition).
  const v = index ? valueSql(key, type) : `+(${valueSql(key, type)})`;
  const bound = boundIndexed ? v : `+(${valueSql(key, type)})`;
  const numeric = type === 'number';
  if (op === 'gte') return [numeric ? `${bound} >= ? AND ${v} < ''` : `${bound} >= ? AND ${v} < ${NO_VALUE}`, [value]];
  if (op === 'lte') return [numeric ? `${bound} <= ?` : `${bound} <= ? AND ${v} >= ''`, [value]];
  // The index finds the value without case; the match itself is exact.
  if (TEXT_LIKE.includes(type)) return [`${v} = ? AND json_extract(iif(json_valid(custom_fields), custom_fields, '{}'), ${jsonPath(key)}) = ?`, [value, value]];
  return [`${v} = ?`, [value]];
}

/** Above this many matches, a list read in the order of another index finds its page sooner by walking that index. */
const FEW_MATCHES = 2000;

/**
 * The condition of a filter, and whether SQLite then sorts the matches (list.ts: PageQuery.sorts).
 * As for a search (search-index.ts), the best plan depends on how many records match, which SQLite
 * cannot know: read the matches through the field's index and sort them when they are few; walk the
 * list's order (ids, another index) and test each record when they are many, since the page then
 * fills after a few records. The matches are counted first, through the index, up to FEW_MATCHES + 1.
 * No counting where the index is the order already: an exact match listed by id (the index holds
 * (value, id)), or a filter on the field the list is sorted by. There, past a cursor, the cursor's
 * position is the tighter bound on the same side as a range's own (the cursor came from a page of
 * this range), and SQLite seeks the index to only one of them: the range's is left out of the seek.
 */
export function plannedCondition(
  db: Db,
  table: string,
  filter: CustomFieldFilter,
  order: { byId: boolean; inIndexOrder: boolean; sortKey: string | undefined; cursorBound: CustomFieldOp | undefined },
): { condition: Condition; sorts: boolean } {
  const indexed = conditionOf(filter, true);
  if (!hasIndex(filter.type)) return { condition: indexed, sorts: false };
  if (filter.key === order.sortKey) return { condition: conditionOf(filter, true, filter.op !== order.cursorBound), sorts: false };
  if (filter.op === 'eq' && order.byId) return { condition: indexed, sorts: false };
  if (!order.inIndexOrder) return { condition: indexed, sorts: true };
  const count = stmt(db, `SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE ${indexed[0]} LIMIT ${FEW_MATCHES + 1})`)
    .pluck()
    .get(...indexed[1]) as number;
  return count > FEW_MATCHES ? { condition: conditionOf(filter, false), sorts: false } : { condition: indexed, sorts: true };
}

/**
 * The order of `sort=custom_fields.<key>`, then id: read in order from the field's index. Records without
 * a value have the largest value, so they come last in ascending order and first in descending order
 * (as PostgreSQL orders NULLs by default): one index serves both directions.
 */
export function customSortKey({ key, type }: CustomFieldSort): SortKey {
  return { sql: valueSql(key, type), indexed: true, expression: true };
}
