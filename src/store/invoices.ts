import { toMajor } from '../domain/money.js';
import type { Invoice } from '../schemas/invoice.js';
import type { Db } from './db.js';
import { perDb, rowJsonSql } from './list-json.js';
import { majorUnitsSql } from './money-sql.js';
import { getRow, insertRow, json, parseJson, stmt, updateRow, type Row } from './rows.js';

/** What an invoice row holds: money in minor units, the payment token rather than the link. */
export interface InvoiceRecord {
  id: string;
  number: string;
  /** The id in another system, unique when set (migration 013). */
  external_id: string | null;
  client_id: string;
  deal_id: string | null;
  recipient_email: string;
  currency: string;
  line_items: { description: string; quantity: number; unit_price_minor: number }[];
  total_minor: number;
  due_date: string | null;
  status: Invoice['status'];
  payment_token: string | null;
  sent_at: string | null;
  paid_at: string | null;
  voided_at: string | null;
  /** When the account's clock passed due_date while the invoice was open (invoice.overdue). */
  overdue_at: string | null;
  created_at: string;
  updated_at: string;
}

const invoiceRecordFromRow = (row: Row): InvoiceRecord => ({ ...row, line_items: parseJson(row.line_items as string, []) }) as unknown as InvoiceRecord;

const invoiceRecordToRow = (record: InvoiceRecord): Row => ({ ...record, line_items: json(record.line_items) });

/** The API's view: major units, each line's amount, and the payment link on the current base URL. */
export function invoiceView(record: InvoiceRecord, baseUrl: string): Invoice {
  const { payment_token, total_minor, line_items, ...rest } = record;
  return {
    ...rest,
    line_items: line_items.map((li) => ({
      description: li.description,
      quantity: li.quantity,
      unit_price: toMajor(li.unit_price_minor, record.currency),
      amount: toMajor(Math.round(li.quantity * li.unit_price_minor), record.currency),
    })),
    total: toMajor(total_minor, record.currency),
    payment_link: payment_token ? `${baseUrl}/pay/${payment_token}` : null,
  };
}

/**
 * An invoice row as invoiceView gives it, made by SQLite (for the list: list-json.ts); one `?`,
 * the base URL of the payment link. Each line's amount is round(quantity × unit price) in minor
 * units, as in JavaScript (amounts are never negative, where SQLite's round and Math.round differ).
 */
export const invoiceJsonSql = perDb((db: Db) => {
  const major = (minor: string) => majorUnitsSql(minor, 'invoices.currency');
  const lineItems = `SELECT json_group_array(json_object(
      'description', li.value ->> 'description',
      'quantity', li.value -> 'quantity',
      'unit_price', ${major("li.value ->> 'unit_price_minor'")},
      'amount', ${major("CAST(round((li.value ->> 'quantity') * (li.value ->> 'unit_price_minor')) AS INTEGER)")}))
    FROM json_each(invoices.line_items) AS li`;
  return rowJsonSql(db, {
    table: 'invoices',
    replace: { line_items: null, total_minor: null, payment_token: null },
    extra: {
      line_items: `(${lineItems})`,
      total: major('invoices.total_minor'),
      payment_link: "json_quote(iif(invoices.payment_token IS NULL, NULL, ? || '/pay/' || invoices.payment_token))",
    },
  });
});

export function findInvoiceRecord(db: Db, id: string): InvoiceRecord | undefined {
  const row = getRow(db, 'invoices', id);
  return row && invoiceRecordFromRow(row);
}

/** The invoice a payment link names. */
export function invoiceByPaymentToken(db: Db, token: string): InvoiceRecord | undefined {
  const row = stmt(db, 'SELECT * FROM invoices WHERE payment_token = ?').get(token) as Row | undefined;
  return row && invoiceRecordFromRow(row);
}

export const insertInvoiceRecord = (db: Db, record: InvoiceRecord): void => insertRow(db, 'invoices', invoiceRecordToRow(record));

/** Writes every field of a stored invoice. */
export const writeInvoiceRecord = (db: Db, record: InvoiceRecord): void => updateRow(db, 'invoices', invoiceRecordToRow(record));

export const countInvoicesOfClient = (db: Db, clientId: string): number =>
  stmt(db, 'SELECT count(*) FROM invoices WHERE client_id = ?').pluck().get(clientId) as number;

/** The invoices of a deal no longer name it (the deal is being deleted). */
export function unlinkInvoicesFromDeal(db: Db, dealId: string, now: string): void {
  stmt(db, 'UPDATE invoices SET deal_id = NULL, updated_at = ? WHERE deal_id = ?').run(now, dealId);
}

/** The account's next invoice number, counted in meta: one more than the last one given. */
export function nextInvoiceSequence(db: Db): number {
  stmt(db, "INSERT INTO meta (key, value) VALUES ('invoice_seq', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1").run();
  return Number(stmt(db, "SELECT value FROM meta WHERE key = 'invoice_seq'").pluck().get());
}

/** Open invoices due before `today` (YYYY-MM-DD) that are not yet marked overdue. */
export const openInvoicesDueBefore = (db: Db, today: string): InvoiceRecord[] =>
  (stmt(db, "SELECT * FROM invoices WHERE status = 'open' AND overdue_at IS NULL AND due_date IS NOT NULL AND due_date < ?").all(today) as Row[]).map(
    invoiceRecordFromRow,
  );
