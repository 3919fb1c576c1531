import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { aClient } from '../helpers/factories.js';

let sandbox: RunningApp;
let api: ApiClient;
let client: { id: string; email: string };

const ITEMS = [
  { description: 'Consulting day', quantity: 3, unit_price: 19.99 },
  { description: 'Travel', quantity: 1.5, unit_price: 10 },
];

// Many quick calls: the burst limit (100/1s by default) is not what this file tests.
useApp({ rateLimit: '0' }, (started, client) => {
  sandbox = started;
  api = client;
});
beforeAll(async () => {
  client = (await api.post('/v1/clients', { name: 'Invoice Test AG', email: 'billing@invoice-test.example' })).body;
});

async function createInvoice(extra: Record<string, unknown> = {}) {
  const res = await api.post('/v1/invoices', { client_id: client.id, currency: 'EUR', line_items: ITEMS, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const tokenOf = (link: string) => link.slice(link.lastIndexOf('/') + 1);

/** The payment page as a browser uses it: no API key, HTML, and a form post. */
const payPage = (token: string, method: 'GET' | 'POST' = 'GET') =>
  fetch(`${sandbox.baseUrl}/pay/${token}`, {
    method,
    ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' } : {}),
  });

describe('creating invoices', () => {
  it('numbers invoices INV-000001, INV-000002, … in order', async () => {
    const numbers = [];
    for (let i = 0; i < 3; i++) numbers.push((await createInvoice()).number);
    expect(numbers).toEqual(['INV-000001', 'INV-000002', 'INV-000003']);
  });

  it('sends at once: open, sent_at, a payment link on the base URL, total from the line items', async () => {
    const invoice = await createInvoice();
    expect(invoice.status).toBe('open');
    expect(Date.parse(invoice.sent_at)).not.toBeNaN();
    expect(invoice.payment_link).toMatch(new RegExp(`^${sandbox.baseUrl}/pay/[A-Za-z0-9_-]{20,}$`));
    expect(invoice.line_items.map((li: { amount: number }) => li.amount)).toEqual([59.97, 15]);
    expect(invoice.total).toBe(74.97);
    expect(invoice.recipient_email).toBe(client.email);
    expect(invoice.paid_at).toBeNull();
  });

  it('computes totals in the currency of the invoice (JPY has no minor unit)', async () => {
    const invoice = await createInvoice({ currency: 'JPY', line_items: [{ description: 'Seat', quantity: 7, unit_price: 1234 }] });
    expect(invoice.total).toBe(8638);
    const refused = await api.post('/v1/invoices', { client_id: client.id, currency: 'JPY', line_items: [{ description: 'x', quantity: 1, unit_price: 1.5 }] });
    expect(refused.status).toBe(422);
  });

  it('gives each sent invoice its own payment link', async () => {
    const [a, b] = [await createInvoice(), await createInvoice()];
    expect(a.payment_link).not.toBe(b.payment_link);
  });

  it('needs recipient_email when the client has no email (422), and takes one given', async () => {
    const noMail = (await api.post('/v1/clients', { name: 'No Mail Ltd' })).body;
    const refused = await api.post('/v1/invoices', { client_id: noMail.id, line_items: ITEMS });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toContain('recipient_email');
    const given = await api.post('/v1/invoices', { client_id: noMail.id, line_items: ITEMS, recipient_email: 'ap@nomail.example' });
    expect(given.status).toBe(201);
    expect(given.body.recipient_email).toBe('ap@nomail.example');
  });

  it("goes to the primary contact's email when the client has none (a company converted from a lead)", async () => {
    const lead = (await api.post('/v1/leads', { first_name: 'Grace', last_name: 'Hopper', company: 'Hopper Compilers', email: 'grace@compilers.example' }))
      .body;
    const converted = (await api.post(`/v1/leads/${lead.id}/convert`, {})).body;
    const client = converted.client;
    expect(client.email).toBeNull();
    await api.post(`/v1/clients/${client.id}/contacts`, { first_name: 'Other', email: 'other@compilers.example' });
    const invoice = await api.post('/v1/invoices', { client_id: client.id, line_items: ITEMS });
    expect(invoice.status, invoice.text).toBe(201);
    expect(invoice.body.recipient_email).toBe('grace@compilers.example');
  });

  it('refuses a client that does not exist (422)', async () => {
    const res = await api.post('/v1/invoices', { client_id: 'cli_missing', line_items: ITEMS });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain('client_id');
  });
});

describe('drafts', () => {
  it('keeps a draft with send: false, lets it be changed, and sends it later', async () => {
    const draft = await createInvoice({ send: false, recipient_email: 'draft@invoice-test.example' });
    expect(draft).toMatchObject({ status: 'draft', sent_at: null, payment_link: null });
    expect((await api.get('/_sandbox/mailbox?to=draft@invoice-test.example')).body.data).toEqual([]);

    const patched = await api.patch(`/v1/invoices/${draft.id}`, { line_items: [{ description: 'Workshop', quantity: 2, unit_price: 2500 }] });
    expect(patched.status).toBe(200);
    expect(patched.body.total).toBe(5000);

    const sent = await api.post(`/v1/invoices/${draft.id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('open');
    expect(sent.body.payment_link).toMatch(/\/pay\/[A-Za-z0-9_-]{20,}$/);
    expect(sent.body.total).toBe(5000);
  });

  it('refuses PATCH on an invoice that is not a draft (409) and leaves it unchanged', async () => {
    const invoice = await createInvoice();
    const res = await api.patch(`/v1/invoices/${invoice.id}`, { due_date: '2030-01-31' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('invalid_transition');
    expect((await api.get(`/v1/invoices/${invoice.id}`)).body).toEqual(invoice);
  });
});

describe('mailbox and payment page', () => {
  it('puts the sent message with the payment link into the sandbox mailbox', async () => {
    const invoice = await createInvoice({ recipient_email: 'mailbox@invoice-test.example' });
    const res = await api.get('/_sandbox/mailbox?to=mailbox@invoice-test.example');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [message] = res.body.data;
    expect(message).toMatchObject({ to: 'mailbox@invoice-test.example', invoice_id: invoice.id });
    expect(message.subject).toContain(invoice.number);
    expect(message.body).toContain(invoice.payment_link);
  });

  it('shows the invoice number and a Pay button on GET /pay/{token}, without an API key', async () => {
    const invoice = await createInvoice();
    const res = await payPage(tokenOf(invoice.payment_link));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain(invoice.number);
    expect(html).toMatch(/<form method="post"><button[^>]*>Pay €74\.97<\/button>/);
  });

  it('pays the invoice when the page form is posted', async () => {
    const invoice = await createInvoice();
    const res = await payPage(tokenOf(invoice.payment_link), 'POST');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('paid');
    expect(html).not.toContain('<button');
    const after = (await api.get(`/v1/invoices/${invoice.id}`)).body;
    expect(after.status).toBe('paid');
    expect(Date.parse(after.paid_at)).not.toBeNaN();
  });

  it('answers 404 for an unknown payment token', async () => {
    expect((await payPage('not-a-real-token')).status).toBe(404);
    expect((await payPage('not-a-real-token', 'POST')).status).toBe(404);
  });
});

describe('paying and voiding', () => {
  it('pays an open invoice with POST /pay', async () => {
    const invoice = await createInvoice();
    const res = await api.post(`/v1/invoices/${invoice.id}/pay`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('paid');
    expect(res.body.paid_at).toEqual(expect.any(String));
  });

  it('refuses to pay a draft (409)', async () => {
    const draft = await createInvoice({ send: false });
    const res = await api.post(`/v1/invoices/${draft.id}/pay`);
    expect(res.status).toBe(409);
    expect((await api.get(`/v1/invoices/${draft.id}`)).body.status).toBe('draft');
  });

  it.each([true, false])('voids an invoice (sent: %s)', async (send) => {
    const invoice = await createInvoice({ send });
    expect(invoice.status).toBe(send ? 'open' : 'draft');
    const res = await api.post(`/v1/invoices/${invoice.id}/void`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('void');
    expect(res.body.voided_at).toEqual(expect.any(String));
  });

  it.each(['paid', 'void'] as const)('keeps a %s invoice final: pay, void and send are 409 invalid_transition', async (final) => {
    const invoice = await createInvoice();
    const closed = (await api.post(`/v1/invoices/${invoice.id}/${final === 'paid' ? 'pay' : 'void'}`)).body;
    expect(closed.status).toBe(final);
    for (const action of ['pay', 'void', 'send']) {
      const res = await api.post(`/v1/invoices/${invoice.id}/${action}`);
      expect(res.status, action).toBe(409);
      expect(res.body.code).toBe('invalid_transition');
    }
    expect((await api.patch(`/v1/invoices/${invoice.id}`, { due_date: '2030-01-31' })).status).toBe(409);
    expect((await api.get(`/v1/invoices/${invoice.id}`)).body).toEqual(closed);
  });

  it('does not pay a voided invoice through its payment page', async () => {
    const invoice = await createInvoice();
    await api.post(`/v1/invoices/${invoice.id}/void`);
    await payPage(tokenOf(invoice.payment_link), 'POST');
    expect((await api.get(`/v1/invoices/${invoice.id}`)).body.status).toBe('void');
  });
});

describe('listing, and no deleting', () => {
  it('filters by status and by client_id', async () => {
    const other = await aClient(api);
    const [draft, open, paid, voided] = [
      await createInvoice({ client_id: other.id, send: false }),
      await createInvoice({ client_id: other.id }),
      await createInvoice({ client_id: other.id }),
      await createInvoice({ client_id: other.id }),
    ];
    await api.post(`/v1/invoices/${paid.id}/pay`);
    await api.post(`/v1/invoices/${voided.id}/void`);
    const all = (await api.get('/v1/invoices?limit=1000')).body.data as { id: string; status: string }[];
    const ofOther = (await api.get(`/v1/invoices?client_id=${other.id}`)).body.data;
    expect(ofOther.map((i: { id: string }) => i.id)).toEqual([draft.id, open.id, paid.id, voided.id]);
    expect((await api.get(`/v1/invoices?client_id=${other.id}&status=draft`)).body.data.map((i: { id: string }) => i.id)).toEqual([draft.id]);
    for (const status of ['draft', 'open', 'paid', 'void']) {
      const res = await api.get(`/v1/invoices?status=${status}&limit=1000`);
      const expected = all.filter((i) => i.status === status).map((i) => i.id);
      expect(res.body.data.map((i: { id: string }) => i.id)).toEqual(expected);
    }
  });

  it('has no DELETE: 405 method_not_allowed with an Allow header, and the invoice stays', async () => {
    const invoice = await createInvoice();
    const res = await api.delete(`/v1/invoices/${invoice.id}`);
    expect(res.status).toBe(405);
    expect(res.body.code).toBe('method_not_allowed');
    const allow = (res.headers.get('allow') ?? '').split(/,\s*/);
    expect(allow).toEqual(expect.arrayContaining(['GET', 'PATCH']));
    expect(allow).not.toContain('DELETE');
    expect((await api.get(`/v1/invoices/${invoice.id}`)).status).toBe(200);
  });
});
