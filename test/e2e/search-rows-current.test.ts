import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';
import { type ApiClient, type RunningSandbox, tempDir, useSandbox } from '../helpers/sandbox.js';
import { dbRows, writeLeadsCsv } from '../helpers/sync.js';

/**
 * Issue #45: the search rows are made when records are written, so no search has rows to rewrite
 * (which held every request of every account: ~4 s after a 1M-lead import). Checked where it is
 * decided, in the sandbox's own database file read beside it: after every write, single or bulk,
 * of each of the four searched resources, no record is left marked stale; and each search that
 * follows finds what was written and nothing deleted. Speed is measured in bench/search-after-import.js.
 */
let sandbox: RunningSandbox;
let api: ApiClient;
const tmp = tempDir('crm-search-current-');
afterAll(() => tmp.remove());

useSandbox(['--no-seed', '--rate-limit', '0', '--quota', '0'], (s, a) => {
  sandbox = s;
  api = a;
});

type Resource = 'leads' | 'clients' | 'deals' | 'invoices';

/** The records of each search index left for a search to rewrite: all zero once a write has committed. */
function staleCounts(): Record<string, number> {
  const sql = ['client', 'lead', 'deal', 'invoice'].map((name) => `SELECT '${name}' AS name, count(*) AS stale FROM ${name}_search_stale`).join(' UNION ALL ');
  return Object.fromEntries(dbRows<{ name: string; stale: number }>(sandbox.db, sql).map((r) => [r.name, r.stale]));
}
const NONE_STALE = { client: 0, lead: 0, deal: 0, invoice: 0 };

async function search(resource: Resource, q: string): Promise<string[]> {
  const res = await api.get(`/v1/${resource}?limit=1000&q=${encodeURIComponent(q)}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((r: { id: string }) => r.id);
}

async function write(method: 'post' | 'patch' | 'delete', path: string, body?: object): Promise<any> {
  const res = await api[method](path, body as never);
  expect(res.status, res.text).toBeLessThan(300);
  expect(staleCounts(), `${method} ${path}`).toEqual(NONE_STALE);
  return res.body;
}

describe('single writes leave every search row current', () => {
  it('create, update and delete of clients (with contacts), leads, deals and invoices', async () => {
    const client = await write('post', '/v1/clients', { name: 'Osmin Orchards', contacts: [{ first_name: 'Blonde', email: 'blonde@osmin.test' }] });
    const lead = await write('post', '/v1/leads', { first_name: 'Konstanze', company: 'Seraglio Supplies' });
    const deal = await write('post', '/v1/deals', { title: 'Belmonte bid', value: 10, currency: 'EUR', stage: 'lead_in', client_id: client.id });
    const invoice = await write('post', '/v1/invoices', {
      client_id: client.id,
      send: false,
      line_items: [{ description: 'Pasha', quantity: 1, unit_price: 5 }],
    });
    expect(await search('clients', 'blonde')).toEqual([client.id]);
    expect(await search('leads', 'seraglio')).toEqual([lead.id]);
    expect(await search('deals', 'belmonte osmin')).toEqual([deal.id]);
    expect(await search('invoices', 'osmin')).toEqual([invoice.id]);

    const [contact] = (await api.get(`/v1/clients/${client.id}/contacts`)).body.data;
    await write('patch', `/v1/clients/${client.id}/contacts/${contact.id}`, { first_name: 'Blondchen' });
    expect(await search('clients', 'blondchen')).toEqual([client.id]);
    await write('patch', `/v1/leads/${lead.id}`, { company: 'Pedrillo Partners' });
    await write('patch', `/v1/deals/${deal.id}`, { title: 'Selim offer' });
    await write('patch', `/v1/invoices/${invoice.id}`, { recipient_email: 'ap@selim.test' });
    // A client renamed changes the rows of its deals and invoices too.
    await write('patch', `/v1/clients/${client.id}`, { name: 'Janissary Goods' });
    expect(await search('leads', 'seraglio')).toEqual([]);
    expect(await search('leads', 'pedrillo')).toEqual([lead.id]);
    expect(await search('deals', 'belmonte')).toEqual([]);
    expect(await search('deals', 'selim janissary')).toEqual([deal.id]);
    expect(await search('invoices', 'osmin')).toEqual([]);
    expect(await search('invoices', 'janissary selim')).toEqual([invoice.id]);
    expect(await search('clients', 'orchards')).toEqual([]);
    expect(await search('clients', 'janissary blonde')).toEqual([client.id]);

    // Invoices are never deleted (their client cannot be while it has one); a client without any is.
    const gone = await write('post', '/v1/clients', { name: 'Leporello Lodge', contacts: [{ first_name: 'Masetto' }] });
    await write('delete', `/v1/deals/${deal.id}`);
    await write('delete', `/v1/leads/${lead.id}`);
    await write('delete', `/v1/clients/${gone.id}`);
    expect(await search('deals', 'selim')).toEqual([]);
    expect(await search('leads', 'pedrillo')).toEqual([]);
    expect(await search('clients', 'masetto')).toEqual([]);
    expect(await search('clients', 'leporello')).toEqual([]);
  });
});

describe('bulk writes leave every search row current', () => {
  it('POST /v1/leads, /v1/clients and /v1/deals bulk: created, then updated', async () => {
    const records = (n: number, make: (i: number) => object) => Array.from({ length: n }, (_, i) => make(i));
    const leads = await write('post', '/v1/leads/bulk', {
      mode: 'upsert',
      records: records(200, (i) => ({ external_id: `sl-${i}`, first_name: `Papagena${i}` })),
    });
    const clients = await write('post', '/v1/clients/bulk', {
      mode: 'upsert',
      records: records(50, (i) => ({ external_id: `sc-${i}`, name: `Monostat${i} AG`, contacts: [{ first_name: `Sprecher${i}` }] })),
    });
    const deals = await write('post', '/v1/deals/bulk', {
      mode: 'upsert',
      records: records(50, (i) => ({
        external_id: `sd-${i}`,
        title: `Tamino${i} tender`,
        value: 1,
        currency: 'EUR',
        stage: 'lead_in',
        client_id: clients.results[i].id,
      })),
    });
    expect(await search('leads', 'papagena199')).toEqual([leads.results[199].id]);
    expect(await search('clients', 'sprecher7')).toEqual([clients.results[7].id]);
    expect(await search('deals', 'tamino49 monostat49')).toEqual([deals.results[49].id]);

    await write('post', '/v1/leads/bulk', { mode: 'upsert', records: [{ external_id: 'sl-199', first_name: 'Papageno' }] });
    await write('post', '/v1/clients/bulk', { mode: 'upsert', records: [{ external_id: 'sc-7', name: 'Queen Ltd', contacts: [{ first_name: 'Sprecher7' }] }] });
    await write('post', '/v1/deals/bulk', {
      mode: 'upsert',
      records: [{ external_id: 'sd-49', title: 'Pamina tender', value: 1, currency: 'EUR', stage: 'lead_in' }],
    });
    expect(await search('leads', 'papagena199')).toEqual([]);
    expect(await search('leads', 'papageno')).toEqual([leads.results[199].id]);
    expect(await search('clients', 'monostat7')).toEqual([]);
    expect(await search('clients', 'queen sprecher7')).toEqual([clients.results[7].id]);
    expect(await search('deals', 'tamino49')).toEqual([]);
    expect(await search('deals', 'pamina')).toEqual([deals.results[49].id]);
  });
});

describe('the first search after a large import', () => {
  it('has no rows left to make, answers right, and /healthz beside it answers too', async () => {
    const rows = 20_000;
    const file = join(tmp.path, 'leads.csv');
    await writeLeadsCsv(file, rows, { externalIds: true, prefix: 'bigimport' });
    const run = await runCrm(['sync', 'import', 'leads', file, '--results', join(tmp.path, 'results'), '--json'], {
      CRM_BASE_URL: sandbox.baseUrl,
      CRM_API_KEY: sandbox.apiKey,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).summary.created).toBe(rows);
    // Before any search: nothing for the first one to do but read (it rewrote all 20,000 rows, holding every request).
    expect(staleCounts()).toEqual(NONE_STALE);

    const health = () => api.get('/healthz');
    const [found, ...healthz] = await Promise.all([search('leads', `bigimport${rows}@example.com`), health(), health(), health()]);
    const id = (await api.get(`/v1/leads?external_id=bigimport-${rows}`)).body.data[0].id;
    expect(found).toEqual([id]);
    for (const res of healthz) expect(res.status).toBe(200);
    expect(await search('leads', 'bigimport')).toHaveLength(1000); // the page's limit: every lead matches
    expect((await api.get('/v1/leads?limit=1&q=First12345%20Last12345')).body.data.map((l: { external_id: string }) => l.external_id)).toEqual([
      'bigimport-12345',
    ]);
  });
});
