import type { Db } from './db.js';
import { stmt } from './rows.js';

/**
 * Where an account keeps its invoices' payment tokens: on the invoice, and copied into links in
 * the invoice's mail and in its events' JSON. Rows of mail and events are named by rowid.
 */
export const invoicePaymentTokens = (db: Db): { id: string; payment_token: string }[] =>
  stmt(db, 'SELECT id, payment_token FROM invoices WHERE payment_token IS NOT NULL').all() as { id: string; payment_token: string }[];

export function setPaymentToken(db: Db, invoiceId: string, token: string): void {
  stmt(db, 'UPDATE invoices SET payment_token = ? WHERE id = ?').run(token, invoiceId);
}

/** The mail of invoices that have a payment link. */
export const mailWithPaymentLinks = (db: Db): { rowid: number; body: string }[] =>
  stmt(db, 'SELECT rowid, body FROM mailbox WHERE invoice_id IN (SELECT id FROM invoices WHERE payment_token IS NOT NULL)').all() as {
    rowid: number;
    body: string;
  }[];

export function setMailBody(db: Db, rowid: number, body: string): void {
  stmt(db, 'UPDATE mailbox SET body = ? WHERE rowid = ?').run(body, rowid);
}

/** The events of invoices that have a payment link. */
export const eventsWithPaymentLinks = (db: Db): { rowid: number; data: string; previous_attributes: string | null }[] =>
  stmt(db, 'SELECT rowid, data, previous_attributes FROM events WHERE object_id IN (SELECT id FROM invoices WHERE payment_token IS NOT NULL)').all() as {
    rowid: number;
    data: string;
    previous_attributes: string | null;
  }[];

export function setEventJson(db: Db, rowid: number, data: string, previous: string | null): void {
  stmt(db, 'UPDATE events SET data = ?, previous_attributes = ? WHERE rowid = ?').run(data, previous, rowid);
}
