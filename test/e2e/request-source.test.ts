import { describe, expect, it } from 'vitest';
import { DASHBOARD, rawRequest, signIn, signInWithKey } from '../helpers/dashboard.js';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

/**
 * Which requests the dashboard made (docs/dashboard.md#the-request-log): its session's requests run under the signed-in
 * key, so without a mark they were logged and counted as that key's, like an app's. Against a real
 * sandbox process: requests with the dashboard's cookie, and with keys.
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({}, (s, a) => ((sandbox = s), (api = a)));

async function dashboardCookie(): Promise<string> {
  const link = await api.post('/_sandbox/dashboard_logins');
  expect(link.status).toBe(201);
  return signIn(sandbox.baseUrl, link.body.url);
}

/** A GET as the dashboard makes it: its cookie and its header, no key. */
const asDashboard = (cookie: string, path: string) => rawRequest(sandbox.baseUrl, 'GET', path, { ...DASHBOARD, cookie });

const logged = async (requestId: unknown) => {
  const res = await api.get(`/v1/request_logs/${String(requestId)}`);
  expect(res.status).toBe(200);
  return res.body;
};

describe('the source of a request', () => {
  it('is "dashboard" for a request made with the dashboard session, "api" for one made with a key', async () => {
    const cookie = await dashboardCookie();
    const fromDashboard = await asDashboard(cookie, '/v1/leads?limit=1');
    expect(fromDashboard.status).toBe(200);
    const fromKey = await api.get('/v1/leads?limit=1');
    const dashboardEntry = await logged(fromDashboard.headers['x-request-id']);
    expect(dashboardEntry).toMatchObject({ path: '/v1/leads', source: 'dashboard', key_id: expect.stringMatching(/^key_/) });
    expect(await logged(fromKey.headers.get('x-request-id'))).toMatchObject({ path: '/v1/leads', source: 'api' });
    // The same key either way: only the source tells them apart.
    expect((await logged(fromKey.headers.get('x-request-id'))).key_id).toBe(dashboardEntry.key_id);
  });

  it('is "dashboard" for a dashboard request its key may not make (403), as for one it may', async () => {
    const reader = await api.post('/v1/api_keys', { name: 'leads only', scopes: ['leads:read'] });
    const cookie = await signInWithKey(sandbox.baseUrl, reader.body.secret);
    const refused = await asDashboard(cookie, '/v1/deals');
    expect(refused.status).toBe(403);
    expect(await logged(refused.headers['x-request-id'])).toMatchObject({ status: 403, source: 'dashboard' });
  });

  it('filters the request log with ?source=dashboard|api, and refuses any other value', async () => {
    const cookie = await dashboardCookie();
    await asDashboard(cookie, '/v1/clients?limit=1');
    await api.get('/v1/clients?limit=1');
    const q = async (query: string) => (await api.get(`/v1/request_logs?limit=1000&path_prefix=/v1/clients&${query}`)).body.data as { source: string }[];
    const dashboard = await q('source=dashboard');
    const others = await q('source=api');
    expect(dashboard.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThan(0);
    expect(dashboard.every((r) => r.source === 'dashboard')).toBe(true);
    expect(others.every((r) => r.source === 'api')).toBe(true);
    expect((await q('')).length).toBe(dashboard.length + others.length);
    for (const bad of ['source=', 'source=DASHBOARD', 'source=cli', 'source=api&source=dashboard']) {
      const res = await api.get(`/v1/request_logs?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('splits usage by source: by_source always, and ?source= counts only that source', async () => {
    const cookie = await dashboardCookie();
    for (let i = 0; i < 3; i++) await asDashboard(cookie, '/v1/invoices?limit=1');
    await api.get('/v1/invoices?limit=1');
    const endpoint = 'GET /v1/invoices';
    const usage = async (query: string) => {
      const res = await api.get(`/v1/usage${query}`);
      expect(res.status, query).toBe(200);
      return res.body;
    };
    const all = await usage('');
    const dashboard = await usage('?source=dashboard');
    const apps = await usage('?source=api');
    const count = (report: any) => report.by_endpoint.find((e: { endpoint: string }) => e.endpoint === endpoint)?.requests ?? 0;
    expect(count(dashboard)).toBe(3);
    expect(count(apps)).toBe(1);
    expect(count(all)).toBe(4);
    expect(all.source).toBeNull();
    expect(dashboard.source).toBe('dashboard');
    // by_source splits the totals (these usage calls are the key's too: compare within one report).
    const bySource = Object.fromEntries(all.by_source.map((s: { source: string; requests: number }) => [s.source, s.requests]));
    expect(bySource.dashboard + bySource.api).toBe(all.totals.requests);
    expect(bySource.dashboard).toBe(dashboard.totals.requests);
    expect(dashboard.by_source).toEqual([{ source: 'dashboard', requests: dashboard.totals.requests }]);
    expect((await api.get('/v1/usage?source=browser')).status).toBe(400);
  });

  it('leaves the dashboard out of the dashboard stream’s usage with ?usage_source=api', async () => {
    const cookie = await dashboardCookie();
    await asDashboard(cookie, '/v1/deals?limit=1');
    const firstReport = async (query: string) => {
      const controller = new AbortController();
      const res = await fetch(`${sandbox.baseUrl}/dashboard/stream${query}`, { headers: { ...DASHBOARD, cookie }, signal: controller.signal });
      expect(res.status, query).toBe(200);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (!/event: usage\ndata: .*\n\n/.test(text)) text += (await reader.read()).value;
      controller.abort();
      return JSON.parse(/event: usage\ndata: (.*)\n\n/.exec(text)![1]!);
    };
    const deals = (report: any) => report.by_endpoint.find((e: { endpoint: string }) => e.endpoint === 'GET /v1/deals')?.requests ?? 0;
    expect(deals(await firstReport(''))).toBe(1);
    const apps = await firstReport('?usage_source=api');
    expect(apps.source).toBe('api');
    expect(deals(apps)).toBe(0);
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/dashboard/stream?usage_source=all', { ...DASHBOARD, cookie })).status).toBe(400);
  });
});
