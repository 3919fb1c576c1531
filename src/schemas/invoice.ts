import { z } from 'zod';
import { lazySchema } from './lazy.js';
import {
  Currency,
  DateOnly,
  Email,
  MoneyAmount,
  listEnvelope,
  listQueryFields,
  listSortFields,
  recordFields,
  searchField,
  syncFields,
  syncFilterFields,
} from './common.js';

const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void'] as const;

const LineItemInput = lazySchema(() =>
  z.strictObject({
    description: z.string().min(1).max(500),
    quantity: z.number().positive().max(1e9),
    unit_price: MoneyAmount(),
  }),
);

// The fields' schemas, made inside each schema that uses them when it is built (lazy.ts).
const editableFields = () => ({
  recipient_email: Email().nullable().optional().describe("Defaults to the client's email, else its primary contact's"),
  currency: Currency().optional().describe("Defaults to the deal's currency, else EUR"),
  line_items: z.array(LineItemInput.unwrap()).min(1).max(100),
  due_date: DateOnly().nullable().optional(),
  deal_id: z.string().max(100).nullable().optional(),
  external_id: syncFields().external_id.describe("The invoice's id in another system (unique when set); `crm sync copy` puts the source invoice's id here"),
});

export const InvoiceCreate = lazySchema(() =>
  z
    .strictObject({
      client_id: z.string().max(100),
      ...editableFields(),
      send: z.boolean().default(true).describe('false keeps the invoice a draft; send it later with POST /v1/invoices/{id}/send'),
    })
    .meta({
      id: 'InvoiceCreate',
      examples: [{ client_id: 'cli_01JDX3Q8ZP0000000000000000', currency: 'EUR', line_items: [{ description: 'Onboarding', quantity: 2, unit_price: 450 }] }],
    }),
);

export const InvoiceUpdate = lazySchema(() => {
  const fields = editableFields();
  return z
    .strictObject({ ...fields, line_items: fields.line_items.optional() })
    .meta({ id: 'InvoiceUpdate', description: 'Only draft invoices can be changed.' });
});

const LineItem = lazySchema(() =>
  z.object({
    description: z.string(),
    quantity: z.number(),
    unit_price: z.number(),
    amount: z.number().describe('quantity × unit_price, rounded to the minor unit'),
  }),
);

export const Invoice = lazySchema(() =>
  z
    .object({
      id: z.string(),
      external_id: z.string().nullable(),
      number: z.string(),
      client_id: z.string(),
      deal_id: z.string().nullable(),
      recipient_email: z.string(),
      currency: z.string(),
      line_items: z.array(LineItem.unwrap()),
      total: z.number(),
      due_date: z.string().nullable(),
      status: z.enum(INVOICE_STATUSES),
      payment_link: z.string().nullable(),
      sent_at: z.string().nullable(),
      paid_at: z.string().nullable(),
      voided_at: z.string().nullable(),
      overdue_at: z.string().nullable().describe('When it passed its due date while open (once, with invoice.overdue)'),
      ...recordFields(),
    })
    .meta({ id: 'Invoice' }),
);

export const InvoiceListQuery = lazySchema(() =>
  z.strictObject({
    ...listQueryFields(),
    ...listSortFields(['total', 'due_date'], 'total (the amount as it reads, whatever the currency) or due_date'),
    ...searchField("number (`42` finds INV-000042), recipient email and the client's name"),
    status: z.enum(INVOICE_STATUSES).optional(),
    client_id: z.string().max(100).optional(),
    external_id: syncFilterFields().external_id,
  }),
);

export const InvoiceList = lazySchema(() => listEnvelope(Invoice.unwrap()).meta({ id: 'InvoiceList' }));

export const MailboxMessage = lazySchema(() =>
  z
    .object({
      id: z.string(),
      to: z.string(),
      subject: z.string(),
      body: z.string(),
      invoice_id: z.string().nullable(),
      created_at: z.string(),
    })
    .meta({ id: 'MailboxMessage' }),
);

export type Invoice = z.infer<typeof Invoice>;
export type InvoiceCreate = z.infer<typeof InvoiceCreate>;
export type InvoiceUpdate = z.infer<typeof InvoiceUpdate>;
export type InvoiceListQuery = z.infer<typeof InvoiceListQuery>;
export type InvoiceSort = InvoiceListQuery['sort'];
