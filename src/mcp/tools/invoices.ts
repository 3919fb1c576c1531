import { z } from 'zod';
import { Invoice, InvoiceCreate, InvoiceListQuery } from '../../schemas/invoice.js';
import type { McpBackend } from '../backend.js';
import { type CrmTool, pageOf, pathId, toolsOf } from '../tool-kit.js';

type Keyed = { idempotency_key?: string };
const InvoiceId = z.object({ id: z.string().describe('The invoice id (inv_…)') });

export function invoiceTools(api: McpBackend): CrmTool[] {
  const tool = toolsOf('invoices');
  return [
    tool({
      name: 'list_invoices',
      title: 'List invoices',
      description:
        'Lists invoices, oldest first (order=desc: newest first; sort by total, due_date or updated_at), filtered by status (draft, open, paid, void) or client_id, or found by number, recipient email or client name (q).',
      kind: 'read',
      input: InvoiceListQuery.unwrap(),
      output: pageOf(Invoice.unwrap()),
      run: (q) => api.call('GET', '/v1/invoices', { query: q }),
    }),
    tool({
      name: 'get_invoice',
      title: 'Get an invoice',
      description: 'Gets one invoice with its lines, total, status and payment link.',
      kind: 'read',
      input: InvoiceId,
      output: Invoice.unwrap(),
      run: ({ id }) => api.call('GET', `/v1/invoices/${pathId(id)}`),
    }),
    tool({
      name: 'create_invoice',
      title: 'Create and send an invoice',
      description:
        'Creates an invoice for a client and, unless send is false, sends it at once: it gets a payment link and is mailed to the recipient (the client’s email by default).',
      kind: 'create',
      input: InvoiceCreate.unwrap(),
      output: Invoice.unwrap(),
      run: ({ idempotency_key, ...body }: Keyed) => api.call('POST', '/v1/invoices', { body, idempotencyKey: idempotency_key }),
    }),
    ...actions.map(([name, title, action, description, kind]) =>
      tool({
        name,
        title,
        description,
        kind,
        input: InvoiceId,
        output: Invoice.unwrap(),
        run: ({ id, idempotency_key }: { id: string } & Keyed) => api.call('POST', `/v1/invoices/${pathId(id)}/${action}`, { idempotencyKey: idempotency_key }),
      }),
    ),
  ];
}

const actions = [
  ['send_invoice', 'Send an invoice', 'send', 'Sends a draft invoice: sets its payment link and mails it to the recipient.', 'update'],
  ['pay_invoice', 'Pay an invoice (sandbox)', 'pay', 'Pays an open invoice, as its payment page would (sandbox simulation; no money moves).', 'update'],
  ['void_invoice', 'Void an invoice', 'void', 'Voids a draft or open invoice. Paid and void invoices cannot change.', 'destroy'],
] as const;
