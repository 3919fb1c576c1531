import { minorDigits } from '../domain/money.js';
import type { Invoice } from '../schemas/invoice.js';
import { insertMail, newestMail } from '../store/mailbox.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';

/**
 * The sandbox sends no real mail: a sent invoice's message lands here, where tests and
 * developers read it (GET /_sandbox/mailbox), as with Mailpit or Stripe's test mode emails.
 */
export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  body: string;
  invoice_id: string | null;
  created_at: string;
}

export function deliverInvoiceMail(ctx: Ctx, invoice: Invoice): void {
  const amount = `${invoice.total.toFixed(minorDigits(invoice.currency))} ${invoice.currency}`;
  insertMail(ctx.db, {
    id: ctx.ids.next('mail'),
    recipient: invoice.recipient_email,
    subject: `Invoice ${invoice.number}: ${amount}`,
    body: [
      `Hello,`,
      ``,
      `invoice ${invoice.number} over ${amount}${invoice.due_date ? `, due ${invoice.due_date}` : ''}, is ready.`,
      `Pay it here: ${invoice.payment_link}`,
    ].join('\n'),
    invoice_id: invoice.id,
    created_at: nowIso(ctx),
  });
}

export function listMailbox(ctx: Ctx, to?: string): MailboxMessage[] {
  return newestMail(ctx.db, to).map((r) => ({
    id: r.id,
    to: r.recipient,
    subject: r.subject,
    body: r.body,
    invoice_id: r.invoice_id ?? null,
    created_at: r.created_at,
  }));
}
