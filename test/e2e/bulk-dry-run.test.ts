import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { dbValue } from '../helpers/sync.js';

/** `dry_run` on the bulk endpoints (docs/sync.md#plan---plan-and-bulk-dry_run): same answer as the real call, nothing written. */
let sandbox: RunningApp;
let api: ApiClient;

useApp({ rateLimit: '0' }, (s, a) => {
  sandbox = s;
  api = a;
});

type Bulk = {
  results: { index: number; status: string; id?: string; changes?: Record<string, { from: unknown; to: unknown }>; error?: { code: string } }[];
  summary: Record<string, number>;
};
const count = (sql: string) => dbValue(sandbox.db, sql);

async function bulk(resource: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Bulk> {
  const res = await api.post(`/v1/${resource}/bulk`, body, { headers });
  expect(res.status, res.text).toBe(200);
  return res.body as Bulk;
}

describe('POST /v1/leads/bulk with dry_run', () => {
  it('plans creates, updates with their changes, unchanged and failures, writing nothing; the real call agrees', async () => {
    await bulk('leads', {
      mode: 'upsert',
      records: [
        { external_id: 'd-1', first_name: 'Ada', email: 'ada.d@example.com' },
        { external_id: 'd-2', first_name: 'Bob' },
      ],
    });
    const records = [
      { external_id: 'd-1', first_name: 'Ada', last_name: 'Lovelace', email: 'ada.d@example.com' },
      { external_id: 'd-2', first_name: 'Bob' },
      { external_id: 'd-3', first_name: 'New' },
      { external_id: 'd-4', email: 'not an email' },
    ];
    const [leads, events, idem] = [count('SELECT count(*) FROM leads'), count('SELECT count(*) FROM events'), count('SELECT count(*) FROM idempotency_keys')];
    const plan = await bulk('leads', { mode: 'upsert', records, dry_run: true }, { 'idempotency-key': 'plan-1' });
    expect(plan.summary).toEqual({ created: 1, updated: 1, unchanged: 1, failed: 1 });
    expect(plan.results.map((r) => r.status)).toEqual(['updated', 'unchanged', 'created', 'failed']);
    expect(plan.results[0]!.changes).toEqual({ last_name: { from: null, to: 'Lovelace' } });
    expect(plan.results[2]!.id).toBeUndefined();
    expect(plan.results[3]!.error!.code).toBe('validation_failed');
    expect(count('SELECT count(*) FROM leads')).toBe(leads);
    expect(count('SELECT count(*) FROM events')).toBe(events);
    expect(count('SELECT count(*) FROM idempotency_keys')).toBe(idem);

    // The same key then runs the real write: the dry run left no record that would replay or refuse it.
    const real = await bulk('leads', { mode: 'upsert', records }, { 'idempotency-key': 'plan-1' });
    expect(real.results.map((r) => r.status)).toEqual(plan.results.map((r) => r.status));
    expect(real.summary).toEqual(plan.summary);
    expect(count('SELECT count(*) FROM leads')).toBe(leads + 1);
    expect((await api.get(`/v1/leads/${real.results[0]!.id}`)).body.last_name).toBe('Lovelace');
  });

  it('reports nested and contact changes of clients', async () => {
    const created = await bulk('clients', { mode: 'upsert', records: [{ external_id: 'dc-1', name: 'Acme', address: { city: 'Berlin' } }] });
    const plan = await bulk('clients', { mode: 'upsert', dry_run: true, records: [{ external_id: 'dc-1', name: 'Acme', address: { city: 'Paris' } }] });
    expect(plan.results[0]).toMatchObject({ status: 'updated', id: created.results[0]!.id, changes: { 'address.city': { from: 'Berlin', to: 'Paris' } } });
    expect((await api.get(`/v1/clients/${created.results[0]!.id}`)).body.address.city).toBe('Berlin');
  });

  it('refuses a dry_run that is not a boolean', async () => {
    const res = await api.post('/v1/leads/bulk', { mode: 'upsert', records: [{ first_name: 'x' }], dry_run: 'yes' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await api.get('/v1/openapi.json')).body;
    const body = doc.paths['/v1/leads/bulk'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(body)).toContain('dry_run');
  });
});
