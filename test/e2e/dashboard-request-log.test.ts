import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

/** The request log (docs/dashboard.md#the-request-log): GET /v1/request_logs and /{id}, against a real sandbox process. */
let sandbox: RunningApp;
let api: ApiClient;
useApp({}, (s, a) => ((sandbox = s), (api = a)));

const entry = async (requestId: string | null) => {
  const res = await api.get(`/v1/request_logs/${requestId}`);
  expect(res.status).toBe(200);
  return res.body;
};

describe('the request log', () => {
  it('records a write with its bodies, key, idempotency key and replay', async () => {
    const first = await api.post('/v1/leads', { first_name: 'Logged' }, { headers: { 'idempotency-key': 'log-1' } });
    const again = await api.post('/v1/leads', { first_name: 'Logged' }, { headers: { 'idempotency-key': 'log-1' } });
    const logged = await entry(first.headers.get('x-request-id'));
    expect(logged).toMatchObject({
      method: 'POST',
      path: '/v1/leads',
      status: 201,
      key_prefix: sandbox.apiKey.slice(0, 13),
      idempotency_key: 'log-1',
      idempotent_replayed: false,
      request_body: { first_name: 'Logged' },
      response_body: { id: first.body.id, first_name: 'Logged' },
    });
    expect(logged.key_id).toMatch(/^key_/);
    expect(logged.duration_ms).toBeGreaterThanOrEqual(0);
    expect((await entry(again.headers.get('x-request-id'))).idempotent_replayed).toBe(true);
  });

  it('keeps a body as it was sent, not as validation made it (no defaults added, nothing dropped, no outcome wrappers)', async () => {
    const sent = { mode: 'create', records: [{ first_name: '  Spaced  ', email: 'Bulk@Example.COM' }, { first_name: 42 }] };
    const bulk = await api.post('/v1/leads/bulk', sent);
    expect(bulk.status).toBe(200);
    expect(bulk.body.summary).toMatchObject({ created: 1, failed: 1 });
    expect((await entry(bulk.headers.get('x-request-id'))).request_body).toEqual(sent);
    // Validation adds the defaults (status, tags, custom fields…); the log keeps what came.
    const single = await api.post('/v1/leads', { first_name: 'Defaults' });
    expect(single.status).toBe(201);
    expect(single.body).toMatchObject({ status: 'new', tags: [] });
    expect((await entry(single.headers.get('x-request-id'))).request_body).toEqual({ first_name: 'Defaults' });
  });

  it('keeps no bodies for reads, records the account’s failures, and no one else’s (401 without a known key)', async () => {
    const read = await api.get('/v1/leads?limit=2');
    const logged = await entry(read.headers.get('x-request-id'));
    expect(logged).toMatchObject({ method: 'GET', path: '/v1/leads', query: 'limit=2', status: 200, request_body: null, response_body: null });
    const missing = await api.get('/v1/clients/client_missing');
    expect(await entry(missing.headers.get('x-request-id'))).toMatchObject({ status: 404, key_id: expect.any(String) });
    // Without a credential of this account, a request is not this account's business (docs/security.md).
    for (const key of [null, 'crm_test_00000000000000000000000000000000']) {
      const anonymous = await api.get('/v1/leads', { key });
      expect(anonymous.status).toBe(401);
      expect((await api.get(`/v1/request_logs/${anonymous.headers.get('x-request-id')}`)).status).toBe(404);
    }
  });

  it('never keeps a secret: keys, webhook and OAuth secrets are redacted in both bodies', async () => {
    const key = await api.post('/v1/api_keys', { name: 'redact me', scopes: ['leads:read'] });
    const hook = await api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', description: `pasted ${key.body.secret}` });
    const app = await api.post('/v1/oauth_apps', { name: 'redact', redirect_uris: ['http://127.0.0.1:9/cb'], scopes: ['leads:read'] });
    for (const [res, secret] of [
      [key, key.body.secret],
      [hook, hook.body.secret],
      [app, app.body.client_secret],
    ] as const) {
      const logged = await entry(res.headers.get('x-request-id'));
      const text = JSON.stringify(logged);
      expect(text).not.toContain(secret);
      expect(text).toContain('[redacted]');
    }
    const list = await api.get('/v1/request_logs?limit=1000');
    expect(list.text).not.toContain(key.body.secret);
  });

  it('filters by status, method, path_prefix, key_id and created_after', async () => {
    const before = new Date().toISOString();
    // created_after is strictly after (as Stripe's `gt`): the request must come a millisecond later
    // than `before`, or a fast machine logs it within the same millisecond and the filter rightly drops it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await api.get('/v1/deals/deal_missing');
    const reader = await api.post('/v1/api_keys', { name: 'reader', scopes: ['leads:read'] });
    await api.get('/v1/leads', { key: reader.body.secret });
    const q = async (query: string) =>
      (await api.get(`/v1/request_logs?limit=1000&${query}`)).body.data as { status: number; method: string; path: string; key_id: string }[];
    const notFound = await q('status=404');
    expect(notFound.length).toBeGreaterThan(0);
    expect(notFound.every((r) => r.status === 404)).toBe(true);
    expect((await q('method=POST')).every((r) => r.method === 'POST')).toBe(true);
    const deals = await q('path_prefix=/v1/deals');
    expect(deals.map((r) => r.path)).toEqual(['/v1/deals/deal_missing']);
    const byReader = await q(`key_id=${reader.body.id}`);
    expect(byReader).toHaveLength(1);
    expect(byReader[0]).toMatchObject({ method: 'GET', path: '/v1/leads' });
    const recent = await q(`created_after=${encodeURIComponent(before)}`);
    expect(recent.map((r) => r.path)).toContain('/v1/deals/deal_missing');
    expect(recent.map((r) => r.path)).not.toContain('/v1/oauth_apps');
  });

  it('pages with cursors like the other lists', async () => {
    const page1 = await api.get('/v1/request_logs?limit=2');
    expect(page1.body.data).toHaveLength(2);
    const page2 = await api.get(`/v1/request_logs?limit=2&cursor=${encodeURIComponent(page1.body.next_cursor)}`);
    expect(page2.body.data[0].id > page1.body.data[1].id).toBe(true);
    expect((await api.get(`/v1/request_logs?limit=2&method=GET&cursor=${encodeURIComponent(page1.body.next_cursor)}`)).status).toBe(400);
  });

  it('needs logs:read; bad filters are 400; an unknown id is 404', async () => {
    const reader = await api.post('/v1/api_keys', { name: 'no logs', scopes: ['leads:read'] });
    const denied = await api.get('/v1/request_logs', { key: reader.body.secret });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('www-authenticate')).toContain('scope="logs:read"');
    const logsKey = await api.post('/v1/api_keys', { name: 'logs', scopes: ['logs:read'] });
    expect((await api.get('/v1/request_logs', { key: logsKey.body.secret })).status).toBe(200);
    for (const query of ['status=abc', 'status=99', 'method=PUT', 'created_after=yesterday', 'path_prefix=', 'nope=1']) {
      expect((await api.get(`/v1/request_logs?${query}`)).status, query).toBe(400);
    }
    const missing = await api.get('/v1/request_logs/req_missing');
    expect(missing.status).toBe(404);
  });
});
