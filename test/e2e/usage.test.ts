import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResponse } from '../helpers/openapi-check.js';
import { apiClient, startSandboxProcess, type ApiClient, type RunningSandbox } from '../helpers/sandbox.js';

/** GET /v1/usage and GET /v1/usage/stream (docs/reference/limits.md#usage) against a real sandbox process. */
let sandbox: RunningSandbox;
let spare: RunningSandbox; // stopped while a stream is open
let api: ApiClient;

beforeAll(async () => {
  [sandbox, spare] = await Promise.all([startSandboxProcess(), startSandboxProcess()]);
  api = apiClient(sandbox);
});
afterAll(async () => {
  await Promise.all([sandbox?.stop(), spare?.stop()]);
});

const today = () => new Date().toISOString().slice(0, 10);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const requestsFor = (list: { endpoint: string; requests: number }[], endpoint: string) => list.find((e) => e.endpoint === endpoint)?.requests ?? 0;

interface UsageEvent {
  event: string;
  data: any;
}

/** Opens the SSE stream with fetch and parses `event:` / `data:` blocks as they arrive. */
async function openStream(target: RunningSandbox, key = target.apiKey) {
  const controller = new AbortController();
  const res = await fetch(`${target.baseUrl}/v1/usage/stream`, { headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  async function next(): Promise<UsageEvent | null> {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const field = (name: string) =>
          block
            .split('\n')
            .filter((l) => l.startsWith(`${name}:`))
            .map((l) => l.slice(name.length + 1).trimStart())
            .join('\n');
        const event: UsageEvent = { event: field('event'), data: JSON.parse(field('data')) };
        await checkResponse(target.baseUrl, 'GET', '/v1/usage/stream', 200, 'text/event-stream', event.data);
        return event;
      }
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += value;
    }
  }
  return { res, next, abort: () => controller.abort() };
}

describe('GET /v1/usage', () => {
  it('totals requests by key, endpoint (route pattern) and status', async () => {
    const keys = await api.get('/v1/api_keys');
    const admin = keys.body.data.find((k: any) => sandbox.apiKey.startsWith(k.prefix) && sandbox.apiKey.endsWith(k.last4));
    expect(admin?.id).toMatch(/^key_/);
    const leads = await api.get('/v1/leads?limit=2');
    const [a, b] = leads.body.data.map((l: any) => l.id as string);
    expect((await api.get(`/v1/leads/${a}`)).status).toBe(200);
    expect((await api.get(`/v1/leads/${b}`)).status).toBe(200);
    expect((await api.get('/v1/leads/lead_0000000000000000000000000')).status).toBe(404);

    const { status, body: usage } = await api.get('/v1/usage');
    expect(status).toBe(200);
    expect(usage.day).toBe(today());
    expect(Date.now() - Date.parse(usage.generated_at)).toBeLessThan(60_000);
    // Everything so far came from the admin key: 5 requests (the usage call is counted when it ends).
    expect(usage.totals.requests).toBe(5);
    expect(usage.by_key).toEqual([{ key_id: admin.id, requests: 5 }]);
    expect(requestsFor(usage.by_endpoint, 'GET /v1/leads/{id}')).toBe(3);
    expect(requestsFor(usage.by_endpoint, 'GET /v1/leads')).toBe(1);
    expect(requestsFor(usage.by_endpoint, 'GET /v1/api_keys')).toBe(1);
    for (const { endpoint } of usage.by_endpoint) {
      expect(endpoint).toMatch(/^(GET|POST|PATCH|DELETE) \/v1\/[a-z_/{}]+$/);
      expect(endpoint).not.toMatch(/lead_/);
    }
    expect(usage.by_status).toEqual(
      expect.arrayContaining([
        { status: 200, requests: 4 },
        { status: 404, requests: 1 },
      ]),
    );
    for (const list of [usage.by_key, usage.by_endpoint, usage.by_status]) expect(sum(list.map((x: any) => x.requests))).toBe(5);
  });

  it('reports the quota, the rate limit and requests per second', async () => {
    const before = await api.get('/v1/usage');
    await api.get('/v1/leads?limit=1');
    const { body: usage } = await api.get('/v1/usage');
    // The limiter counts the usage call itself as it starts; the meter, once it has ended.
    expect(usage.totals.requests).toBe(before.body.totals.requests + 2);
    const nextMidnight = new Date(`${today()}T00:00:00.000Z`).getTime() + 86400_000;
    expect(usage.quota).toEqual({
      limit: 100000,
      used: usage.totals.requests + 1,
      remaining: 100000 - usage.totals.requests - 1,
      resets_at: new Date(nextMidnight).toISOString(),
    });
    expect(usage.rate_limit).toEqual({ limit: 10000, window_seconds: 1 }); // the test helper's default
    const { window_seconds, average, series } = usage.requests_per_second;
    expect(window_seconds).toBe(300);
    expect(series).toHaveLength(300);
    expect(sum(series)).toBe(usage.totals.requests); // this sandbox is younger than 5 minutes
    expect(sum(series.slice(-10))).toBeGreaterThan(0);
    expect(average).toBeCloseTo(sum(series) / 300, 3);
  });

  it('splits requests per second by status class for the dashboard chart (429 apart from the other 4xx)', async () => {
    await api.get('/v1/leads/lead_missing'); // 404
    await api.get('/v1/leads', { key: null }); // 401 (unauthenticated: not metered per key)
    const { body: usage } = await api.get('/v1/usage');
    const byClass = usage.requests_per_second.by_class as { status_class: string; series: number[] }[];
    expect(byClass.map((c) => c.status_class)).toEqual(['2xx', '4xx', '429', '5xx']);
    for (const c of byClass) expect(c.series).toHaveLength(300);
    const total = (k: string) => sum(byClass.find((c) => c.status_class === k)!.series);
    const counted = Object.fromEntries((usage.by_status as { status: number; requests: number }[]).map((s) => [s.status, s.requests]));
    expect(total('4xx')).toBe(
      Object.entries(counted)
        .filter(([s]) => s.startsWith('4') && s !== '429')
        .reduce((a, [, n]) => a + n, 0),
    );
    expect(total('4xx')).toBeGreaterThan(0);
    expect(total('2xx') + total('4xx') + total('429') + total('5xx')).toBe(sum(usage.requests_per_second.series));
  });

  it('answers for another day, and refuses a bad one', async () => {
    const old = await api.get('/v1/usage?day=2001-01-01');
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ day: '2001-01-01', totals: { requests: 0 }, by_key: [], by_endpoint: [], by_status: [] });
    const bad = await api.get('/v1/usage?day=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_request');
  });

  it('needs the usage:read scope', async () => {
    const created = await api.post('/v1/api_keys', { name: 'leads only', scopes: ['leads:read'] });
    expect(created.status).toBe(201);
    const key = created.body.secret as string;
    expect((await api.get('/v1/leads?limit=1', { key })).status).toBe(200);
    for (const path of ['/v1/usage', '/v1/usage/stream']) {
      const res = await api.get(path, { key });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('insufficient_scope');
      expect(res.headers.get('www-authenticate')).toContain('scope="usage:read"');
    }
    const reader = await api.post('/v1/api_keys', { name: 'usage reader', scopes: ['usage:read'] });
    const usage = await api.get('/v1/usage', { key: reader.body.secret });
    expect(usage.status).toBe(200);
    expect(usage.body.by_key.map((k: any) => k.key_id)).toContain(created.body.id);
  });
});

describe('GET /v1/usage/stream', () => {
  it('sends the report live, once a second, and survives the client going away', async () => {
    const stream = await openStream(sandbox);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(stream.res.headers.get('ratelimit-policy')).toBe('"burst";q=10000;w=1, "daily";q=100000;w=86400');
    expect(stream.res.headers.get('ratelimit')).toMatch(/^"(burst|daily)";r=\d+;t=\d+$/); // whichever is nearer exhaustion
    expect(stream.res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const first = (await stream.next())!;
    expect(first.event).toBe('usage');
    const second = (await stream.next())!;
    expect(second.event).toBe('usage');
    expect(Date.parse(second.data.generated_at) - Date.parse(first.data.generated_at)).toBeGreaterThanOrEqual(900);

    const leadId = (await api.get('/v1/leads?limit=1')).body.data[0].id;
    const endpoint = 'GET /v1/leads/{id}';
    const countBefore = requestsFor(second.data.by_endpoint, endpoint);
    const totalBefore = second.data.totals.requests;
    for (let i = 0; i < 3; i++) expect((await api.get(`/v1/leads/${leadId}`)).status).toBe(200);
    const madeAt = Date.now();
    // The first report generated after those requests counts them.
    let later = (await stream.next())!;
    while (Date.parse(later.data.generated_at) < madeAt) later = (await stream.next())!;
    expect(later.event).toBe('usage');
    expect(requestsFor(later.data.by_endpoint, endpoint)).toBe(countBefore + 3);
    expect(later.data.totals.requests).toBeGreaterThanOrEqual(totalBefore + 4);

    stream.abort();
    await expect(stream.next()).rejects.toThrow();
    await sleep(1500); // past the next tick of the aborted stream's timer
    const after = await api.get('/v1/usage');
    expect(after.status).toBe(200);
    expect((await fetch(`${sandbox.baseUrl}/healthz`)).status).toBe(200);
    expect(sandbox.process.exitCode).toBeNull();
  });

  it('lets the sandbox stop cleanly on SIGTERM while a stream is open', async () => {
    const stream = await openStream(spare);
    expect((await stream.next())?.event).toBe('usage');
    expect(await spare.stop('SIGTERM')).toBe(0);
    // The server ended the stream on its way out: the body finishes instead of breaking off.
    let event: UsageEvent | null;
    do event = await stream.next();
    while (event);
    expect(spare.stderr()).not.toMatch(/error/i);
  });
});
