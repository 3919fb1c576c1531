import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/dashboard.js';
import { apiClient, startSandboxProcess, tempDir, type ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

/**
 * A high-severity finding (docs/security.md#payment-links): accounts copied from the same seed template shared their invoices' payment
 * tokens, and `/pay/{token}` resolved to the oldest holder, so account B's own payment link paid
 * account A's invoice. Every account's tokens must be its own (on creation, reset and restore) and
 * `/pay/{token}` must never resolve across accounts (docs/security.md#payment-links).
 */
let sandbox: RunningApp;
let admin: ApiClient;
useApp({ seed: 1 }, (s, a) => ((sandbox = s), (admin = a)));

interface Account {
  id: string;
  key: string;
  api: ApiClient;
}
interface Invoice {
  id: string;
  status: string;
  payment_link: string | null;
}

async function newAccount(name: string, api = admin, baseUrl = sandbox.baseUrl): Promise<Account> {
  // As `crm accounts create` does.
  const res = await api.post('/_sandbox/accounts', { name, plan: 'pro' });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id, key: res.body.api_key, api: apiClient({ baseUrl, apiKey: res.body.api_key }) };
}

async function openInvoices(api: ApiClient): Promise<Invoice[]> {
  const res = await api.get<{ data: Invoice[] }>('/v1/invoices?status=open&limit=100');
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Every payment token the account holds, from its invoices (any status). */
async function tokensOf(api: ApiClient): Promise<string[]> {
  const res = await api.get<{ data: Invoice[] }>('/v1/invoices?limit=100');
  expect(res.status, res.text).toBe(200);
  return res.body.data.filter((i) => i.payment_link).map((i) => tokenOf(i.payment_link!));
}

const tokenOf = (link: string) => new URL(link).pathname.replace('/pay/', '');

async function paidEvents(api: ApiClient): Promise<string[]> {
  const res = await api.get<{ data: { data: { object: { id: string } } }[] }>('/v1/events?type=invoice.paid&limit=100');
  return res.body.data.map((e) => e.data.object.id);
}

describe('accounts seeded alike', () => {
  it('hold payment tokens of their own: none is shared with another account', async () => {
    const [a, b] = [await newAccount('A'), await newAccount('B')];
    const [mine, theirs, defaults] = [await tokensOf(a.api), await tokensOf(b.api), await tokensOf(admin)];
    expect(mine.length).toBeGreaterThan(5);
    expect(theirs.length).toBe(mine.length);
    const all = [...mine, ...theirs, ...defaults];
    expect(new Set(all).size).toBe(all.length);
  });

  it("paying through B's own payment link pays B's invoice and never touches A's", async () => {
    const [a, b] = [await newAccount('A'), await newAccount('B')];
    const target = (await openInvoices(b.api))[0]!;
    // Seeded alike: A has the same invoice (same id), open too.
    expect((await a.api.get<Invoice>(`/v1/invoices/${target.id}`)).body.status).toBe('open');
    const aBefore = (await a.api.get(`/v1/invoices/${target.id}`)).body;
    const aPaidBefore = await paidEvents(a.api);

    const page = await rawRequest(sandbox.baseUrl, 'GET', new URL(target.payment_link!).pathname);
    expect(page.status).toBe(200);
    const paid = await rawRequest(sandbox.baseUrl, 'POST', new URL(target.payment_link!).pathname, { 'content-type': 'application/x-www-form-urlencoded' }, '');
    expect(paid.status).toBe(200);
    expect(paid.body).toContain('<strong>paid</strong>');

    expect((await b.api.get<Invoice>(`/v1/invoices/${target.id}`)).body.status).toBe('paid');
    expect(await paidEvents(b.api)).toContain(target.id);
    expect((await a.api.get(`/v1/invoices/${target.id}`)).body).toEqual(aBefore);
    expect(await paidEvents(a.api)).toEqual(aPaidBefore);
  });

  it("A's link is not B's: every account's link opens only its own invoice", async () => {
    const [a, b] = [await newAccount('A'), await newAccount('B')];
    const aLink = (await openInvoices(a.api))[0]!.payment_link!;
    expect((await b.api.get<{ data: Invoice[] }>('/v1/invoices?limit=100')).body.data.map((i) => i.payment_link)).not.toContain(aLink);
    await rawRequest(sandbox.baseUrl, 'POST', new URL(aLink).pathname, { 'content-type': 'application/x-www-form-urlencoded' }, '');
    expect(await paidEvents(b.api)).toEqual([]);
  });
});

describe('snapshots and reset', () => {
  it('a restore gives the restored invoices new tokens: the saved links no longer pay', async () => {
    const [a, b] = [await newAccount('A'), await newAccount('B')];
    const path = `/_sandbox/accounts/${a.id}/snapshots`;
    // Sent now, so that its invoice.sent event is within the events' retention.
    const client = (await a.api.get('/v1/clients?limit=1')).body.data[0];
    const created = await a.api.post<Invoice>('/v1/invoices', {
      client_id: client.id,
      recipient_email: 'payer@example.test',
      line_items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
      send: true,
    });
    expect(created.status, created.text).toBe(201);
    const invoice = created.body;
    const savedLinks = await tokensOf(a.api);
    expect((await admin.post(path, { name: 'before-pay' })).status).toBe(201);
    // The link is used (handed out, paid), then the account goes back to before.
    expect(
      (await rawRequest(sandbox.baseUrl, 'POST', new URL(invoice.payment_link!).pathname, { 'content-type': 'application/x-www-form-urlencoded' }, '')).status,
    ).toBe(200);
    expect((await admin.post(`${path}/before-pay/restore`)).status).toBe(200);

    const restored = (await a.api.get<Invoice>(`/v1/invoices/${invoice.id}`)).body;
    expect(restored.status).toBe('open');
    expect(restored.payment_link).not.toBe(invoice.payment_link);
    const now = await tokensOf(a.api);
    expect(now.length).toBe(savedLinks.length);
    expect(now.filter((t) => savedLinks.includes(t))).toEqual([]);
    const all = [...now, ...(await tokensOf(b.api)), ...(await tokensOf(admin))];
    expect(new Set(all).size).toBe(all.length);
    // The saved link is dead; the new one works, and the invoice's events carry it.
    expect((await rawRequest(sandbox.baseUrl, 'GET', new URL(invoice.payment_link!).pathname)).status).toBe(404);
    expect((await rawRequest(sandbox.baseUrl, 'GET', new URL(restored.payment_link!).pathname)).status).toBe(200);
    const sent = await a.api.get<{ data: { data: { object: Invoice } }[] }>('/v1/events?type=invoice.sent&limit=100');
    expect(sent.body.data.find((e) => e.data.object.id === invoice.id)!.data.object.payment_link).toBe(restored.payment_link);
    // Restoring the same snapshot twice does not bring the same tokens back either.
    expect((await admin.post(`${path}/before-pay/restore`)).status).toBe(200);
    expect((await tokensOf(a.api)).filter((t) => now.includes(t))).toEqual([]);
  });

  it('`crm sandbox reset` seeds the default account with tokens no other account holds', async () => {
    const a = await newAccount('A');
    const before = await tokensOf(admin);
    expect((await admin.post('/_sandbox/reset')).status).toBe(200);
    const after = await tokensOf(admin);
    expect(after.length).toBeGreaterThan(5);
    expect(after.filter((t) => before.includes(t))).toEqual([]);
    const all = [...after, ...(await tokensOf(a.api))];
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('a token two accounts hold', () => {
  /** Gives `to`'s invoices the tokens of `from`'s (same ids: seeded alike), in its file, as a sandbox made before the fix had them. */
  function copyTokens(dir: string, from: string, to: string): void {
    const source = new Database(join(dir, 'sandbox.accounts', `${from}.db`), { readonly: true });
    const target = new Database(join(dir, 'sandbox.accounts', `${to}.db`));
    target.pragma('busy_timeout = 5000');
    try {
      const rows = source.prepare('SELECT id, payment_token FROM invoices WHERE payment_token IS NOT NULL').all() as { id: string; payment_token: string }[];
      const update = target.prepare('UPDATE invoices SET payment_token = ? WHERE id = ?');
      target.transaction(() => rows.forEach((r) => update.run(r.payment_token, r.id)))();
    } finally {
      source.close();
      target.close();
    }
  }

  it('is refused by /pay/{token} (409), never resolved to one of them; after a restart each holder has new tokens', async () => {
    const dir = tempDir();
    let own = await startSandboxProcess([], { db: join(dir.path, 'sandbox.db') });
    try {
      const ownAdmin = apiClient(own);
      const adminKey = own.apiKey; // printed on the first start only
      const [a, b] = [await newAccount('A', ownAdmin, own.baseUrl), await newAccount('B', ownAdmin, own.baseUrl)];
      copyTokens(dir.path, a.id, b.id);
      const invoice = (await openInvoices(a.api))[0]!;
      expect((await b.api.get<Invoice>(`/v1/invoices/${invoice.id}`)).body.payment_link).toBe(invoice.payment_link);

      const page = await rawRequest(own.baseUrl, 'GET', new URL(invoice.payment_link!).pathname);
      expect(page.status).toBe(409);
      const pay = await rawRequest(own.baseUrl, 'POST', new URL(invoice.payment_link!).pathname, { 'content-type': 'application/x-www-form-urlencoded' }, '');
      expect(pay.status).toBe(409);
      expect(JSON.parse(pay.body).code).toBe('conflict');
      expect((await a.api.get<Invoice>(`/v1/invoices/${invoice.id}`)).body.status).toBe('open');
      expect((await b.api.get<Invoice>(`/v1/invoices/${invoice.id}`)).body.status).toBe('open');
      expect(await paidEvents(a.api)).toEqual([]);
      expect(await paidEvents(b.api)).toEqual([]);

      // A sandbox made before tokens were per account: the next start renews every shared token.
      await own.stop();
      own = await startSandboxProcess([], { db: join(dir.path, 'sandbox.db') });
      const [a2, b2] = [a, b].map((x) => apiClient({ baseUrl: own.baseUrl, apiKey: x.key }));
      const [aTokens, bTokens] = [await tokensOf(a2!), await tokensOf(b2!)];
      expect(aTokens.length).toBeGreaterThan(5);
      const all = [...aTokens, ...bTokens, ...(await tokensOf(apiClient({ baseUrl: own.baseUrl, apiKey: adminKey! })))];
      expect(new Set(all).size).toBe(all.length);
      expect(aTokens).not.toContain(tokenOf(invoice.payment_link!));
      const bLink = (await b2!.get<Invoice>(`/v1/invoices/${invoice.id}`)).body.payment_link!;
      const paid = await rawRequest(own.baseUrl, 'POST', new URL(bLink).pathname, { 'content-type': 'application/x-www-form-urlencoded' }, '');
      expect(paid.status).toBe(200);
      expect((await b2!.get<Invoice>(`/v1/invoices/${invoice.id}`)).body.status).toBe('paid');
      expect((await a2!.get<Invoice>(`/v1/invoices/${invoice.id}`)).body.status).toBe('open');
    } finally {
      await own.stop();
      dir.remove();
    }
  });
});
