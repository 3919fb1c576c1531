import type { ClientSort } from '../schemas/client.js';
import type { DealSort } from '../schemas/deal.js';
import type { InvoiceSort } from '../schemas/invoice.js';
import type { LeadSort } from '../schemas/lead.js';
import { majorUnitsSql } from './money-sql.js';

/**
 * What a list can be ordered by besides creation (`sort`, docs/reference/basics.md#lists-and-pagination): a key per row, in SQL,
 * after which the id decides. list.ts orders and pages by (key, id) in either direction.
 */
export interface SortKey {
  /** The row's key, in the table's columns. */
  sql: string;
  /** Some rows have none (NULL): they come last, ascending or descending. */
  nullable?: boolean;
  /** Text people sort without regard to case (SQLite's NOCASE: ASCII letters). */
  text?: boolean;
  /** An index holds the rows in (key, id) order, so a page is read in order rather than sorted. */
  indexed?: boolean;
  /** The member of the returned object that holds the key as it is, for the next cursor; otherwise it is read from the row. */
  member?: string;
  /**
   * The index is on an expression (a custom field's value: store/custom-field-sql.ts). SQLite seeks
   * such an index for `key >= ?` but not for a row value `(key, id) > (?, ?)`, which it reads from
   * the index's start: the cursor's condition is written out (list.ts).
   */
  expression?: boolean;
}

const UPDATED_AT: SortKey = { sql: 'updated_at', indexed: true, member: 'updated_at' };

const text = (sql: string, nullable = true): SortKey => ({ sql, text: true, nullable });
const date = (column: string): SortKey => ({ sql: column, nullable: true });
/** Amounts in major units, as the API shows them: across currencies, the number as it reads (no exchange rates). */
const money = (minorColumn: string): SortKey => ({ sql: majorUnitsSql(minorColumn, 'currency') });

const leads: Record<Exclude<LeadSort, 'created' | 'updated_at'>, SortKey> = {
  // As the name reads: first name, then last name; a lead with neither has no name (a company only).
  name: text("nullif(concat_ws(' ', first_name, last_name), '')"),
  company: text('company'),
  email: text('email'),
};
const clients: Record<Exclude<ClientSort, 'created' | 'updated_at'>, SortKey> = { name: text('name', false) };
const deals: Record<Exclude<DealSort, 'created' | 'updated_at'>, SortKey> = {
  title: text('title', false),
  value: money('value_minor'),
  expected_close_date: date('expected_close_date'),
};
const invoices: Record<Exclude<InvoiceSort, 'created' | 'updated_at'>, SortKey> = { total: money('total_minor'), due_date: date('due_date') };

const KEYS: Readonly<Record<string, Readonly<Record<string, SortKey>>>> = { leads, clients, deals, invoices };

/** The key of a sort the table's list schema allows; undefined for `created` (by id alone). */
export function sortKeyOf(table: string, sort: string): SortKey | undefined {
  if (sort === 'created') return undefined;
  if (sort === 'updated_at') return UPDATED_AT;
  const keys = KEYS[table];
  const key = keys && Object.hasOwn(keys, sort) ? keys[sort] : undefined;
  if (!key) throw new Error(`sortKeyOf: ${table} has no sort '${sort}'`);
  return key;
}
