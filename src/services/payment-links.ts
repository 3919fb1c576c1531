import { eventsWithPaymentLinks, invoicePaymentTokens, mailWithPaymentLinks, setEventJson, setMailBody, setPaymentToken } from '../store/payment-links.js';
import type { Ctx } from './context.js';
import { inTransaction } from './transactions.js';
import { newPaymentToken } from './invoices.js';

/**
 * Gives every invoice of the account that has a payment link a new token, and rewrites the link
 * where the account keeps a copy of it: the invoice's mail and its events (a test reads the link
 * from the mailbox; a re-sent event must carry a link that works). Used whenever an account's
 * data comes from somewhere else (the seed image, a template shared by new accounts, a snapshot):
 * a token is a secret that belongs to one account, and a copy would let the other holder pay.
 *
 * With `fromBaseUrl`, links on that base URL also move to the account's own (the seed image's
 * links are on a placeholder URL); without it, only the token part of a link changes. With `only`,
 * just those tokens are renewed (the ones another account holds too).
 *
 * Idempotency keys' stored responses keep the old link, as a replay returns the response as it was
 * (the old token is dead, and no other account can hold it).
 */
export function renewPaymentLinks(ctx: Ctx, options: { fromBaseUrl?: string; only?: ReadonlySet<string> } = {}): void {
  const { fromBaseUrl, only } = options;
  inTransaction(ctx, () => {
    const all = invoicePaymentTokens(ctx.db);
    const invoices = only ? all.filter((invoice) => only.has(invoice.payment_token)) : all;
    if (!invoices.length) return;
    const renewed = new Map<string, string>();
    for (const invoice of invoices) {
      const token = newPaymentToken();
      renewed.set(invoice.payment_token, token);
      setPaymentToken(ctx.db, invoice.id, token);
    }
    const rewrite = linkRewriter(renewed, fromBaseUrl, fromBaseUrl === undefined ? '' : ctx.baseUrl());
    const mails = mailWithPaymentLinks(ctx.db);
    for (const mail of mails) {
      const body = rewrite(mail.body);
      if (body !== mail.body) setMailBody(ctx.db, mail.rowid, body);
    }
    const events = eventsWithPaymentLinks(ctx.db);
    for (const event of events) {
      // The link is a JSON string there, and JSON.stringify writes a URL's characters as they are.
      const [data, previous] = [rewrite(event.data), event.previous_attributes === null ? null : rewrite(event.previous_attributes)];
      if (data !== event.data || previous !== event.previous_attributes) {
        setEventJson(ctx.db, event.rowid, data, previous);
      }
    }
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces `<from>/pay/<old token>` by `<to>/pay/<new token>` for the renewed tokens only. */
function linkRewriter(renewed: Map<string, string>, from: string | undefined, to: string): (text: string) => string {
  const link = new RegExp(`${escapeRegExp(from ?? '')}/pay/([A-Za-z0-9_-]+)`, 'g');
  return (text) => text.replace(link, (whole, token: string) => (renewed.has(token) ? `${to}/pay/${renewed.get(token)}` : whole));
}
