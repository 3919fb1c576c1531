import type { CrmClient } from '../../client/client.js';
import type { Invoice } from '../../schemas/invoice.js';
import { copyKey, seg } from './bulk.js';
import type { TargetEntry } from './target.js';

/**
 * Invoices are copied one by one (they have no bulk endpoint) and keep their state as far as the
 * API's transitions go: made as a draft, then sent, paid or voided (draft → open → paid; draft or
 * open → void). A void invoice is voided as a draft, never sent first: sending mails the
 * recipient. The sandbox's "mail" is its own mailbox (GET /_sandbox/mailbox), which reaches no one;
 * a target that is not a sandbox would really mail, so there an invoice that needs `send` fails
 * with `would_mail` instead. Dates of sending and payment are the copy's, not the source's: the
 * API sets them. Invoices never go back (paid → open), so a target ahead of its source fails.
 */
type InvoiceStatus = Invoice['status'];
export interface InvoiceOutcome {
  status: 'created' | 'updated' | 'unchanged' | 'failed';
  id?: string;
  code?: string;
  message?: string;
}

type Action = 'send' | 'pay' | 'void';
const FROM_DRAFT: Record<InvoiceStatus, Action[]> = { draft: [], open: ['send'], paid: ['send', 'pay'], void: ['void'] };

/** The transitions from the target's state to the source's, or undefined when there is no way. */
function transitionsTo(current: InvoiceStatus, wanted: InvoiceStatus): Action[] | undefined {
  if (current === wanted) return [];
  if (current === 'draft') return FROM_DRAFT[wanted];
  if (current === 'open' && wanted === 'paid') return ['pay'];
  if (current === 'open' && wanted === 'void') return ['void'];
  return undefined;
}

/** The draft fields that differ between the target's invoice and the body (client_id cannot change). */
function draftChanges(existing: Invoice, body: Record<string, unknown>): Record<string, unknown> | undefined {
  const now: Record<string, unknown> = {
    deal_id: existing.deal_id,
    recipient_email: existing.recipient_email,
    currency: existing.currency,
    line_items: existing.line_items.map((li) => ({ description: li.description, quantity: li.quantity, unit_price: li.unit_price })),
    due_date: existing.due_date,
  };
  const patch: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(now)) if (JSON.stringify(value) !== JSON.stringify(body[field])) patch[field] = body[field];
  return Object.keys(patch).length ? patch : undefined;
}

export interface InvoiceWriter {
  client: CrmClient;
  runId: string;
  plan: boolean;
  targetIsSandbox: boolean;
}

export async function copyInvoice(
  w: InvoiceWriter,
  source: Invoice,
  body: Record<string, unknown>,
  existing: TargetEntry | undefined,
): Promise<InvoiceOutcome> {
  const current = (existing?.status ?? 'draft') as InvoiceStatus;
  const actions = transitionsTo(current, source.status);
  if (!actions) {
    return {
      status: 'failed',
      ...(existing ? { id: existing.id } : {}),
      code: 'invalid_transition',
      message: `The target's invoice is ${current} and the source's ${source.status}: invoices do not go back.`,
    };
  }
  if (actions.includes('send') && !w.targetIsSandbox) {
    return {
      status: 'failed',
      code: 'would_mail',
      message:
        'Sending an invoice on a server that is not a sandbox mails its recipient; it was not copied. Copy into a sandbox, or leave invoices out (--resources).',
    };
  }
  const patch = existing?.invoice && current === 'draft' ? draftChanges(existing.invoice, body) : undefined;
  if (w.plan) return { status: !existing ? 'created' : patch || actions.length ? 'updated' : 'unchanged', ...(existing ? { id: existing.id } : {}) };

  const key = (what: string, payload = '') => copyKey(w.runId, source.id, what, payload);
  let id = existing?.id;
  if (!id) {
    const text = JSON.stringify({ ...body, send: false });
    id = (await w.client.request<Invoice>('POST', '/v1/invoices', { bodyText: text, idempotencyKey: key('create', text) })).id;
  } else if (patch) {
    const text = JSON.stringify(patch);
    await w.client.request<Invoice>('PATCH', `/v1/invoices/${seg(id)}`, { bodyText: text, idempotencyKey: key('patch', text) });
  }
  for (const action of actions) await w.client.request<Invoice>('POST', `/v1/invoices/${seg(id)}/${action}`, { idempotencyKey: key(action) });
  return { status: !existing ? 'created' : patch || actions.length ? 'updated' : 'unchanged', id };
}
