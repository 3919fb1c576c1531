import { createHash } from 'node:crypto';
import { formatMoney } from '../domain/money.js';
import type { Invoice } from '../schemas/invoice.js';

/** The page's only style, inline and allowed by its hash: one file less to serve, and no script at all. */
const STYLE =
  'body{font:16px system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}table{width:100%;border-collapse:collapse}td,th{padding:.4rem;border-bottom:1px solid #ddd;text-align:left}button{font-size:1.1rem;padding:.6rem 1.4rem}';
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * The headers of every answer under /pay/ (the page, the answer to its form, errors): nothing may
 * run or load but the style above, no other site may frame it (clickjacking the Pay button), the
 * form posts only here, and neither the address (its token is the secret) nor the page is kept.
 */
export const PAY_PAGE_HEADERS: Record<string, string> = {
  'content-security-policy': `default-src 'none'; style-src ${STYLE_HASH}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The small page behind an invoice's payment link: the invoice, and a Pay button while it is open. */
export function paymentPage(invoice: Invoice): string {
  // As a payer reads them (English: the page has no locale of its own): €2,000.00, 31 Jan 2030.
  const money = (n: number) => formatMoney(n, invoice.currency, 'en');
  const day = (ymd: string) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${ymd.slice(0, 10)}T00:00:00Z`));
  const rows = invoice.line_items
    .map((li) => `<tr><td>${escapeHtml(li.description)}</td><td>${li.quantity}</td><td>${money(li.unit_price)}</td><td>${money(li.amount)}</td></tr>`)
    .join('');
  const action =
    invoice.status === 'open'
      ? `<form method="post"><button type="submit">Pay ${money(invoice.total)}</button></form>`
      : `<p class="status">This invoice is <strong>${invoice.status}</strong>${invoice.paid_at ? ` (paid ${day(invoice.paid_at)})` : ''}.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Invoice ${escapeHtml(invoice.number)}</title>
<style>${STYLE}</style>
</head><body>
<p>Sandbox payment page: no real money moves.</p>
<h1>Invoice ${escapeHtml(invoice.number)}</h1>
<p>To ${escapeHtml(invoice.recipient_email)}${invoice.due_date ? `, due ${day(invoice.due_date)}` : ''}</p>
<table><thead><tr><th>Item</th><th>Qty</th><th>Unit price</th><th>Amount</th></tr></thead><tbody>${rows}</tbody>
<tfoot><tr><th colspan="3">Total</th><th>${money(invoice.total)}</th></tr></tfoot></table>
${action}
</body></html>`;
}
