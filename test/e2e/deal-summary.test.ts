import { describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { aClient } from '../helpers/factories.js';

/**
 * GET /v1/deals/summary: each stage's count and value per currency, the column heads of a board.
 * Every figure is checked against what the list returns for the same filters, on a real sandbox.
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({ rateLimit: '0', seed: 1 }, (s, a) => ((sandbox = s), (api = a)));

const STAGES = ['lead_in', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];
interface Summary {
  count: number;
  stages: { stage: string; count: number; totals: { currency: string; count: number; value: number | string }[] }[];
}
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

async function summary(query: string, client = api): Promise<Summary> {
  const res = await client.get(`/v1/deals/summary?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function bulkDeals(records: Record<string, unknown>[]) {
  const res = await api.post('/v1/deals/bulk', { mode: 'create', records });
  expect(res.body.summary, res.text).toMatchObject({ created: records.length, failed: 0 });
}

describe('GET /v1/deals/summary', () => {
  it('counts and sums each stage exactly, every stage in pipeline order, empty ones included', async () => {
    const tag = unique('sum');
    await bulkDeals([
      { title: 'a', value: 0.1, currency: 'EUR', stage: 'qualified', tags: [tag] },
      { title: 'b', value: 0.2, currency: 'EUR', stage: 'qualified', tags: [tag] },
      { title: 'c', value: 1500, currency: 'JPY', stage: 'qualified', tags: [tag] },
      { title: 'd', value: 99.99, currency: 'USD', stage: 'won', tags: [tag] },
    ]);
    const s = await summary(`tag=${tag}`);
    expect(s.count).toBe(4);
    expect(s.stages.map((x) => x.stage)).toEqual(STAGES);
    expect(s.stages.find((x) => x.stage === 'qualified')).toEqual({
      stage: 'qualified',
      count: 3,
      totals: [
        { currency: 'EUR', count: 2, value: 0.3 }, // added in cents, not as 0.30000000000000004
        { currency: 'JPY', count: 1, value: 1500 },
      ],
    });
    expect(s.stages.find((x) => x.stage === 'won')).toEqual({ stage: 'won', count: 1, totals: [{ currency: 'USD', count: 1, value: 99.99 }] });
    expect(s.stages.find((x) => x.stage === 'lead_in')).toEqual({ stage: 'lead_in', count: 0, totals: [] });
  });

  it('agrees with the list on the seeded data, stage by stage', async () => {
    const s = await summary('');
    let listed = 0;
    for (const { stage, count, totals } of s.stages) {
      const deals = (await api.get(`/v1/deals?stage=${stage}&limit=1000`)).body.data as { value: number; currency: string }[];
      expect(count, stage).toBe(deals.length);
      const byCurrency = new Map<string, [count: number, cents: number]>();
      for (const d of deals) {
        const [count, cents] = byCurrency.get(d.currency) ?? [0, 0];
        byCurrency.set(d.currency, [count + 1, cents + Math.round(d.value * 100)]);
      }
      const expected = [...byCurrency].sort(([a], [b]) => a.localeCompare(b)).map(([currency, [count, cents]]) => [currency, count, cents]);
      expect(
        totals.map((t) => [t.currency, t.count, Math.round(Number(t.value) * 100)]),
        stage,
      ).toEqual(expected);
      listed += deals.length;
    }
    expect(listed).toBeGreaterThan(0);
    expect(s.count).toBe(listed);
  });

  it('takes the list’s filters: client_id and q', async () => {
    const client = await aClient(api);
    const word = unique('zephyr').replace(/-/g, '');
    await bulkDeals([
      { title: `${word} one`, value: 10, currency: 'EUR', stage: 'proposal', client_id: client.id },
      { title: 'other', value: 5, currency: 'EUR', stage: 'proposal', client_id: client.id },
    ]);
    const byClient = await summary(`client_id=${client.id}`);
    expect(byClient.count).toBe(2);
    expect(byClient.stages.find((x) => x.stage === 'proposal')!.totals).toEqual([{ currency: 'EUR', count: 2, value: 15 }]);
    const bySearch = await summary(`q=${word}`);
    expect(bySearch.count).toBe(1);
    expect(bySearch.stages.find((x) => x.stage === 'proposal')!.totals).toEqual([{ currency: 'EUR', count: 1, value: 10 }]);
  });

  it('follows a moved deal from one stage to the next', async () => {
    const tag = unique('move');
    const deal = (await api.post('/v1/deals', { title: 'mover', value: 42, currency: 'GBP', stage: 'lead_in', tags: [tag] })).body;
    expect((await summary(`tag=${tag}`)).stages.map((x) => x.count)).toEqual([1, 0, 0, 0, 0, 0]);
    expect((await api.post(`/v1/deals/${deal.id}/win`, {})).status).toBe(200);
    expect((await summary(`tag=${tag}`)).stages.map((x) => x.count)).toEqual([0, 0, 0, 0, 1, 0]);
    expect((await api.delete(`/v1/deals/${deal.id}`)).status).toBe(200);
    expect((await summary(`tag=${tag}`)).count).toBe(0);
  });

  it('refuses what a summary does not take: a stage, a cursor, an unknown field, a bad time', async () => {
    for (const query of ['stage=won', 'cursor=abc', 'limit=10', 'colour=red', 'created_after=yesterday']) {
      const res = await api.get(`/v1/deals/summary?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('invalid_request');
    }
  });

  it('needs deals:read, and counts only the key’s own account', async () => {
    const leadsOnly = (await api.post('/v1/api_keys', { name: 'leads only', scopes: ['leads:read'] })).body.secret;
    const refused = await apiClient({ baseUrl: sandbox.baseUrl, apiKey: leadsOnly }).get('/v1/deals/summary');
    expect(refused.status).toBe(403);
    const readOnly = (await api.post('/v1/api_keys', { name: 'deals read', scopes: ['deals:read'] })).body.secret;
    expect((await apiClient({ baseUrl: sandbox.baseUrl, apiKey: readOnly }).get('/v1/deals/summary')).status).toBe(200);
    expect((await apiClient({ baseUrl: sandbox.baseUrl, apiKey: 'crm_test_00000000000000000000000000000000' }).get('/v1/deals/summary')).status).toBe(401);

    const account = (await api.post('/_sandbox/accounts', { name: 'summary elsewhere', seed: null })).body;
    const other = apiClient({ baseUrl: sandbox.baseUrl, apiKey: account.api_key });
    expect(await summary('', other)).toEqual({ count: 0, stages: STAGES.map((stage) => ({ stage, count: 0, totals: [] })) });
    const mine = await summary('');
    expect(mine.count).toBeGreaterThan(0);
    expect((await other.post('/v1/deals', { title: 'theirs', value: 7, currency: 'EUR', stage: 'won' })).status).toBe(201);
    expect((await summary('', other)).stages.find((x) => x.stage === 'won')).toEqual({
      stage: 'won',
      count: 1,
      totals: [{ currency: 'EUR', count: 1, value: 7 }],
    });
    expect(await summary('')).toEqual(mine); // their deal did not reach this account
  });

  it('sums past 2^53 minor units exactly, as a decimal string, and past 2^63 without an error', async () => {
    // Three deals of 4,000,000,000,000.001 KWD: 12,000,000,000,000,003 minor units, past 2^53
    // (a float sum reads …004); as a number it could not be exact, so it is a string.
    const exact = unique('exact');
    await bulkDeals(Array.from({ length: 3 }, (_, i) => ({ title: `big ${i}`, value: 4000000000000.001, currency: 'KWD', stage: 'proposal', tags: [exact] })));
    const proposal = (await summary(`tag=${exact}`)).stages.find((x) => x.stage === 'proposal');
    expect(proposal?.totals).toEqual([{ currency: 'KWD', count: 3, value: '12000000000000.003' }]);

    // 1,030 deals of 9,000,000,000,000 KWD: 9.27e21 minor units, past SQLite's 2^63 (9.22e18).
    const huge = unique('huge');
    const deal = { title: 'huge', value: 9000000000000, currency: 'KWD', stage: 'negotiation', tags: [huge] };
    await bulkDeals(Array.from({ length: 1000 }, () => deal));
    await bulkDeals(Array.from({ length: 30 }, () => deal));
    const res = await api.get(`/v1/deals/summary?tag=${huge}`);
    expect(res.status, res.text).toBe(200);
    const negotiation = (res.body as Summary).stages.find((x) => x.stage === 'negotiation');
    expect(negotiation?.totals).toEqual([{ currency: 'KWD', count: 1030, value: String(9000000000000n * 1030n) }]);
  });
});
