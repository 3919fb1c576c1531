import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations, useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * A list's related names (docs/dashboard.md#pages): the Deals and Invoices lists name each row's client from one
 * `GET /v1/clients?ids=…` request, not one request per row; an id the API does not have reads "Not
 * found", a failed request never does. Against the default seed (deals and invoices of many clients).
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

/** Every /v1 request the page sends from now on, as "GET /v1/…?…". */
function recordRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r: Request) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/v1/')) seen.push(`${r.method()} ${url.pathname}${url.search}`);
  });
  return seen;
}

/** The Client column (the second) of a list's rows. */
const clientCells = (page: Page, caption: string) => page.getByRole('table', { name: caption }).locator('tbody tr td:nth-child(2)');

/** The client names the API gives for a list's first page, in its order ("—" for none), and their ids. */
async function expectedClients(path: string): Promise<{ names: string[]; ids: string[] }> {
  const rows = (await suite.api.get(`${path}?order=desc&limit=25`)).body.data as { client_id: string | null }[];
  const ids = [...new Set(rows.flatMap((r) => (r.client_id ? [r.client_id] : [])))];
  const clients = (await suite.api.get(`/v1/clients?ids=${ids.join(',')}&limit=100`)).body.data as { id: string; name: string }[];
  const names = new Map(clients.map((c) => [c.id, c.name]));
  return { names: rows.map((r) => (r.client_id ? (names.get(r.client_id) ?? `Not found (${r.client_id})`) : '—')), ids };
}

describe('client names in lists', () => {
  for (const [resource, caption] of [
    ['deals', 'Deals, newest first'],
    ['invoices', 'Invoices, newest first'],
  ] as const) {
    it(`${resource}: come from one ?ids= request, none per client, and show the names`, async () => {
      const { names: expected, ids } = await expectedClients(`/v1/${resource}`);
      expect(new Set(expected).size, 'the seed gives the page several clients').toBeGreaterThan(3);
      const page = await suite.signedIn();
      const requests = recordRequests(page);
      await page.goto(`${suite.sandbox.baseUrl}/dashboard/${resource}`);
      await expect.poll(() => clientCells(page, caption).allTextContents()).toEqual(expected);

      const perClient = requests.filter((r) => /^GET \/v1\/clients\/[^/?]+/.test(r));
      const batched = requests.filter((r) => r.startsWith('GET /v1/clients?ids='));
      expect(perClient).toEqual([]);
      expect(batched).toHaveLength(1);
      // Each client once, however many of its rows the page shows.
      const asked = decodeURIComponent(new URL(batched[0]!.slice(4), 'http://x').searchParams.get('ids')!).split(',');
      expect(asked.toSorted()).toEqual(ids.toSorted());
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.context().close();
    }, 60_000);
  }

  it('say "Not found" only for a client the API does not have, and "Couldn\'t load" when the request fails', async () => {
    // A converted lead keeps its client's id after the client is deleted: the API has no such client.
    const lead = (await suite.api.post('/v1/leads', { first_name: 'Ada', last_name: 'Gone', company: 'Short-lived Client Ltd' })).body;
    const converted = await suite.api.post(`/v1/leads/${lead.id}/convert`, {});
    expect(converted.status, converted.text).toBe(201);
    const goneId = (await suite.api.get(`/v1/leads/${lead.id}`)).body.converted_client_id as string;
    expect((await suite.api.delete(`/v1/clients/${goneId}`)).status).toBe(200);
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/leads/${lead.id}`);
    await page.getByText(`Not found (${goneId})`).waitFor();

    // The sandbox fails the next names request with a 500 (POST /_sandbox/faults): the names are unknown, not absent.
    const kept = (await suite.api.post('/v1/clients', { name: 'Kept Client Ltd' })).body;
    expect(
      (await suite.api.post('/v1/deals', { title: 'Deal of a kept client', value: 100, currency: 'EUR', stage: 'lead_in', client_id: kept.id })).status,
    ).toBe(201);
    const fault = await suite.api.post('/_sandbox/faults', { method: 'GET', path_prefix: '/v1/clients?ids=', status: 500, count: 1 });
    expect(fault.status).toBe(201);
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/deals`); // a new page load: nothing remembered
    const table = page.getByRole('table', { name: 'Deals, newest first' });
    await table.getByRole('row').filter({ hasText: 'Deal of a kept client' }).getByText(`Couldn't load (${kept.id})`).waitFor();
    const texts = await clientCells(page, 'Deals, newest first').allTextContents();
    expect(texts.filter((t) => t.startsWith("Couldn't load")).length).toBeGreaterThan(1); // the whole batch failed…
    expect(texts.filter((t) => t.startsWith('Not found'))).toEqual([]); // …and none of it reads "Not found"
    expect((await suite.api.get('/_sandbox/faults')).body.data).toEqual([]); // the fault fired
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  }, 60_000);
});
