import { randomBytes } from 'node:crypto';
import { toMinor } from '../domain/money.js';
import { ApiError, fieldError, notFound } from '../errors.js';
import type { Invoice, InvoiceCreate, InvoiceListQuery, InvoiceUpdate } from '../schemas/invoice.js';
import { findClient } from '../store/clients.js';
import { firstContactEmail } from '../store/contacts.js';
import { findDeal } from '../store/deals.js';
import {
  findInvoiceRecord,
  insertInvoiceRecord,
  invoiceByPaymentToken,
  invoiceJsonSql,
  invoiceView,
  nextInvoiceSequence,
  openInvoicesDueBefore,
  writeInvoiceRecord,
  type InvoiceRecord,
} from '../store/invoices.js';
import { commonConditions, type Condition } from '../store/list.js';
import { listTableJson, type JsonBody } from '../store/list-json.js';
import { changedAttributes, sentFields } from './changes.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';
import { assertExternalIdFree } from './external-ids.js';
import { inTransaction } from './transactions.js';
import { recordEvent } from './events.js';
import { deliverInvoiceMail } from './mailbox.js';

/** The secret part of an invoice's payment link: whoever has the link may pay. */
export const newPaymentToken = (): string => randomBytes(24).toString('base64url');

/** Invoice states (docs/reference/states.md#invoices): draft → open (sent) → paid | void; draft → void. */
const view = (ctx: Ctx, record: InvoiceRecord): Invoice => invoiceView(record, ctx.baseUrl());

function getRecord(ctx: Ctx, id: string): InvoiceRecord {
  const record = findInvoiceRecord(ctx.db, id);
  if (!record) throw notFound('invoice', id);
  return record;
}

export const getInvoice = (ctx: Ctx, id: string): Invoice => view(ctx, getRecord(ctx, id));

export function getInvoiceByToken(ctx: Ctx, token: string): Invoice {
  const record = invoiceByPaymentToken(ctx.db, token);
  if (!record) throw new ApiError('not_found', 'No invoice has this payment link.');
  return view(ctx, record);
}

function lineItemsAndTotal(items: InvoiceCreate['line_items'], currency: string) {
  const lineItems = items.map((li, i) => ({
    description: li.description,
    quantity: li.quantity,
    unit_price_minor: toMinor(li.unit_price, currency, `line_items.${i}.unit_price`),
  }));
  const total = lineItems.reduce((sum, li) => sum + Math.round(li.quantity * li.unit_price_minor), 0);
  if (!Number.isSafeInteger(total)) throw fieldError('line_items', 'too_big', 'The invoice total is too large.');
  return { line_items: lineItems, total_minor: total };
}

/**
 * Fills the defaults that come from related records: currency from the deal; the recipient is the
 * client's email, else its primary contact's (a company made from a lead keeps the person's email
 * on its contact, not on itself — as HubSpot and Pipedrive bill a company's contact).
 */
function resolveRelations(ctx: Ctx, clientId: string, dealId: string | null | undefined) {
  const client = findClient(ctx.db, clientId);
  if (!client) throw fieldError('client_id', 'not_found', `No client with id '${clientId}'.`);
  // An empty string is an id too (of no deal): looked up and refused, not stored as a dangling reference.
  const deal = dealId != null ? findDeal(ctx.db, dealId) : undefined;
  if (dealId != null && !deal) throw fieldError('deal_id', 'not_found', `No deal with id '${dealId}'.`);
  const clientEmail = client.email ?? firstContactEmail(ctx.db, clientId) ?? null;
  return { clientEmail, dealCurrency: deal?.currency };
}

function nextNumber(ctx: Ctx): string {
  const seq = nextInvoiceSequence(ctx.db);
  return `INV-${String(seq).padStart(6, '0')}`;
}

export function createInvoice(ctx: Ctx, input: InvoiceCreate): Invoice {
  return inTransaction(ctx, () => {
    const { clientEmail, dealCurrency } = resolveRelations(ctx, input.client_id, input.deal_id);
    const recipient = input.recipient_email ?? clientEmail;
    if (!recipient) throw fieldError('recipient_email', 'required', 'Neither the client nor its contacts have an email address: give recipient_email.');
    const currency = input.currency ?? dealCurrency ?? 'EUR';
    assertExternalIdFree(ctx, 'invoices', input.external_id);
    const now = nowIso(ctx);
    const record: InvoiceRecord = {
      id: ctx.ids.next('inv'),
      number: nextNumber(ctx),
      external_id: input.external_id ?? null,
      client_id: input.client_id,
      deal_id: input.deal_id ?? null,
      recipient_email: recipient,
      currency,
      ...lineItemsAndTotal(input.line_items, currency),
      due_date: input.due_date ?? null,
      status: 'draft',
      payment_token: null,
      sent_at: null,
      paid_at: null,
      voided_at: null,
      overdue_at: null,
      created_at: now,
      updated_at: now,
    };
    insertInvoiceRecord(ctx.db, record);
    recordEvent(ctx, 'invoice.created', view(ctx, record));
    return input.send ? sendInvoice(ctx, record.id) : view(ctx, record);
  });
}

export function updateInvoice(ctx: Ctx, id: string, patch: InvoiceUpdate): Invoice {
  return inTransaction(ctx, () => {
    const before = getRecord(ctx, id);
    if (before.status !== 'draft') throw new ApiError('invalid_transition', `Only draft invoices can be changed; this one is ${before.status}.`);
    const fields = sentFields(patch);
    assertExternalIdFree(ctx, 'invoices', fields.external_id, id);
    const { dealCurrency } = resolveRelations(ctx, before.client_id, fields.deal_id === undefined ? before.deal_id : fields.deal_id);
    const currency = fields.currency ?? (fields.deal_id ? dealCurrency : undefined) ?? before.currency;
    // Re-priced on every change, so a new currency's minor digits are checked against every line.
    const money = lineItemsAndTotal(fields.line_items ?? invoiceView(before, '').line_items, currency);
    const after: InvoiceRecord = {
      ...before,
      recipient_email: fields.recipient_email ?? before.recipient_email,
      due_date: fields.due_date === undefined ? before.due_date : fields.due_date,
      deal_id: fields.deal_id === undefined ? before.deal_id : fields.deal_id,
      external_id: fields.external_id === undefined ? before.external_id : fields.external_id,
      currency,
      ...money,
      updated_at: nowIso(ctx),
    };
    writeInvoiceRecord(ctx.db, after);
    return view(ctx, after);
  });
}

/**
 * Moves an invoice between states; `from` lists the states the move is allowed from. Returns the
 * invoice after, and the changed fields' old values for the event's previous_attributes.
 */
function transition(ctx: Ctx, id: string, from: InvoiceRecord['status'][], to: InvoiceRecord['status'], apply: (r: InvoiceRecord, now: string) => void) {
  const record = getRecord(ctx, id);
  if (!from.includes(record.status)) {
    throw new ApiError('invalid_transition', `The invoice is ${record.status}; it can become ${to} only from ${from.join(' or ')}.`);
  }
  const now = nowIso(ctx);
  const after: InvoiceRecord = { ...record, status: to, updated_at: now };
  apply(after, now);
  writeInvoiceRecord(ctx.db, after);
  const invoice = view(ctx, after);
  return { invoice, previous: changedAttributes(view(ctx, record), invoice) };
}

export function sendInvoice(ctx: Ctx, id: string): Invoice {
  return inTransaction(ctx, () => {
    const { invoice, previous } = transition(ctx, id, ['draft'], 'open', (r, now) => {
      r.sent_at = now;
      r.payment_token = newPaymentToken();
    });
    deliverInvoiceMail(ctx, invoice);
    recordEvent(ctx, 'invoice.sent', invoice, previous);
    return invoice;
  });
}

export function payInvoice(ctx: Ctx, id: string): Invoice {
  return inTransaction(ctx, () => {
    const { invoice, previous } = transition(ctx, id, ['open'], 'paid', (r, now) => (r.paid_at = now));
    recordEvent(ctx, 'invoice.paid', invoice, previous);
    return invoice;
  });
}

export function voidInvoice(ctx: Ctx, id: string): Invoice {
  return inTransaction(ctx, () => {
    const { invoice, previous } = transition(ctx, id, ['draft', 'open'], 'void', (r, now) => (r.voided_at = now));
    recordEvent(ctx, 'invoice.voided', invoice, previous);
    return invoice;
  });
}

export function listInvoices(ctx: Ctx, q: InvoiceListQuery): JsonBody {
  const conditions: Condition[] = commonConditions(q);
  if (q.status) conditions.push(['status = ?', [q.status]]);
  if (q.client_id) conditions.push(['client_id = ?', [q.client_id]]);
  return listTableJson(ctx.db, ctx.cursorSecret, 'invoices', q, conditions, invoiceJsonSql(ctx.db), [ctx.baseUrl()]);
}

/**
 * Open invoices whose due date the account's clock has passed become overdue, once each
 * (`overdue_at` set, `invoice.overdue`): run when the clock moves and as time passes. The status
 * stays `open` (it can still be paid); overdue is a fact about time, not a state.
 */
export function markOverdueInvoices(ctx: Ctx): number {
  const today = nowIso(ctx).slice(0, 10);
  const records = openInvoicesDueBefore(ctx.db, today);
  if (records.length === 0) return 0;
  return inTransaction(ctx, () => {
    for (const record of records) {
      const now = nowIso(ctx);
      const after: InvoiceRecord = { ...record, overdue_at: now, updated_at: now };
      writeInvoiceRecord(ctx.db, after);
      const invoice = view(ctx, after);
      recordEvent(ctx, 'invoice.overdue', invoice, changedAttributes(view(ctx, record), invoice));
    }
    return records.length;
  });
}
