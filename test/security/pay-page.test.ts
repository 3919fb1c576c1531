import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/dashboard.js';
import { useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * A low-severity finding (docs/security.md#payment-links): `/pay/{token}` had no CSP, so any site could frame the payment page and trick a
 * click on its Pay button (clickjacking), and nothing stopped what an injected script could do.
 * Every answer under /pay/ now carries a strict CSP with `frame-ancestors 'none'`, nosniff,
 * no-referrer and no-store, and the page still works in a browser under it.
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** An invoice sent now: its payment link, and its id. */
async function openInvoice(): Promise<{ id: string; path: string; link: string }> {
  const client = (await suite.api.get('/v1/clients?limit=1')).body.data[0];
  const res = await suite.api.post('/v1/invoices', {
    client_id: client.id,
    recipient_email: 'payer@example.test',
    line_items: [{ description: 'Work', quantity: 2, unit_price: 50 }],
    send: true,
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id, path: new URL(res.body.payment_link).pathname, link: res.body.payment_link };
}

function expectPayHeaders(res: { headers: Record<string, string | string[] | undefined> }, what: string): string {
  const csp = String(res.headers['content-security-policy']);
  expect(csp, what).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'$/);
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['referrer-policy'], what).toBe('no-referrer');
  expect(res.headers['cache-control'], what).toBe('no-store');
  return csp;
}

describe('headers', () => {
  it('the page, the answer to its form and its refusals all carry the CSP, nosniff, no-referrer and no-store', async () => {
    const invoice = await openInvoice();
    const page = await rawRequest(suite.sandbox.baseUrl, 'GET', invoice.path);
    expect(page.status).toBe(200);
    const csp = expectPayHeaders(page, 'GET page');
    // Nothing inline but the one style, whose hash the CSP names; no script at all.
    expect(page.body).not.toMatch(/<script|style=|on[a-z]+=/i);
    const styles = [...page.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    expect(csp).toContain(`'sha256-${createHash('sha256').update(styles[0]!).digest('base64')}'`);

    const paid = await rawRequest(suite.sandbox.baseUrl, 'POST', invoice.path, FORM, '');
    expect(paid.status).toBe(200);
    expectPayHeaders(paid, 'POST page');
    expect(paid.body).toContain('<strong>paid</strong>');
    expect((await suite.api.get(`/v1/invoices/${invoice.id}`)).body.status).toBe('paid');

    for (const [method, path] of [
      ['GET', '/pay/unknown-token'],
      ['POST', '/pay/unknown-token'],
    ] as const) {
      const refused = await rawRequest(suite.sandbox.baseUrl, method, path, method === 'POST' ? FORM : {}, method === 'POST' ? '' : undefined);
      expect(refused.status, `${method} ${path}`).toBe(404);
      expectPayHeaders(refused, `${method} ${path}`);
    }
  });
});

describe('in a browser', () => {
  let attacker: Server;
  let attackerUrl = '';
  beforeAll(async () => {
    // Another site: a page that frames the payment page, to put its own button over Pay.
    attacker = createServer((req, res) => {
      const link = new URL(req.url!, 'http://x').searchParams.get('link') ?? '';
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><title>Win a prize</title><iframe name="pay" src="${link}" width="600" height="400"></iframe>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => attacker.close(() => resolve())));

  it('pays under the CSP: the style applies, the form posts, no violation is reported', async () => {
    const invoice = await openInvoice();
    const context = await suite.context();
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => /Content Security Policy|Refused to/.test(m.text()) && violations.push(m.text()));
    await page.goto(invoice.link);
    // The hashed style applies (the page is 40rem wide).
    expect(await page.evaluate<string>('getComputedStyle(document.body).maxWidth')).toBe('640px');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('This invoice is paid', { exact: false }).waitFor();
    expect(violations).toEqual([]);
    expect((await suite.api.get(`/v1/invoices/${invoice.id}`)).body.status).toBe('paid');
    await context.close();
  });

  it('another site cannot frame the payment page: the frame stays empty, its Pay button never shows', async () => {
    const invoice = await openInvoice();
    const context = await suite.context();
    const page = await context.newPage();
    // The browser reports the refusal on the console; wait for it rather than for the frame object,
    // which Chromium swaps for an error frame (another process) at a moment of its choosing.
    const refused = page.waitForEvent('console', { predicate: (m) => m.text().includes('frame-ancestors'), timeout: 10_000 });
    await page.goto(`${attackerUrl}?link=${encodeURIComponent(invoice.link)}`);
    await refused;
    await page.waitForLoadState('load');
    expect(await page.locator('iframe[name="pay"]').count()).toBe(1);
    expect(await page.frameLocator('iframe[name="pay"]').locator('button').count()).toBe(0);
    expect((await suite.api.get(`/v1/invoices/${invoice.id}`)).body.status).toBe('open');
    await context.close();
  });
});
