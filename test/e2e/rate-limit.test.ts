import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, clearOfWindowEnd, startSandboxProcess, type ApiClient, type ApiResponse } from '../helpers/sandbox.js';
import { useSandboxes, type RunningApp } from '../helpers/app.js';

/**
 * docs/reference/limits.md#rate-limits-and-quotas against real sandbox processes: the RateLimit fields, 429 with Retry-After, per-key
 * budgets, the daily quota, and limits turned off. Windows are real (2 s); the tests wait only
 * as long as the headers say.
 */
let limited: RunningApp; // --rate-limit 5/2s --quota 1000/1d
let quota: RunningApp; // --rate-limit 0 --quota 4/1d
let unlimited: RunningApp; // --rate-limit 0 --quota 0
let api: ApiClient;
let secondKey: string;

useSandboxes(
  3,
  [
    { rateLimit: '5/2s', quota: '1000/1d', seed: 1 },
    { rateLimit: '0', quota: '4/1d', seed: 1 },
    { rateLimit: '0', quota: '0', seed: 1 },
  ],
  (apps) => ([limited, quota, unlimited] = apps as [RunningApp, RunningApp, RunningApp]),
);
beforeAll(async () => {
  api = apiClient(limited);
  const created = await api.post('/v1/api_keys', { name: 'second', scopes: ['leads:read'] });
  expect(created.status).toBe(201);
  secondKey = created.body.secret;
});

const POLICY = '"burst";q=5;w=2, "daily";q=1000;w=86400';

/** The RateLimit field, checked against the X-RateLimit-* triple that must say the same. */
function rateLimit(res: ApiResponse): { policy: string; r: number; t: number } {
  const match = /^"(\w+)";r=(\d+);t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '');
  expect(match, `RateLimit header on ${res.status}: ${res.headers.get('ratelimit')}`).not.toBeNull();
  const [, policy, r, t] = match!;
  expect(res.headers.get('x-ratelimit-remaining')).toBe(r);
  expect(res.headers.get('x-ratelimit-reset')).toBe(t);
  return { policy: policy!, r: Number(r), t: Number(t) };
}

/** Requests with one key until the first 429; returns every response. */
async function untilLimited(key?: string): Promise<ApiResponse[]> {
  const seen: ApiResponse[] = [];
  for (let i = 0; i < 40; i++) {
    const res = await api.get('/v1/leads?limit=1', key ? { key } : {});
    seen.push(res);
    if (res.status === 429) return seen;
    expect(res.status).toBe(200);
  }
  throw new Error('40 requests and no 429 from a 5/2s limit');
}

function expectRateLimited(res: ApiResponse): number {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ type: '/errors/rate_limited', code: 'rate_limited', status: 429 });
  const retryAfter = res.headers.get('retry-after') ?? '';
  expect(retryAfter).toMatch(/^\d+$/);
  const seconds = Number(retryAfter);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(2); // never longer than the window
  expect(res.headers.get('ratelimit-policy')).toBe(POLICY);
  expect(rateLimit(res)).toEqual({ policy: 'burst', r: 0, t: seconds });
  expect(res.headers.get('x-ratelimit-limit')).toBe('5');
  return seconds;
}

describe('rate limit headers', () => {
  it('are on every authenticated /v1 response, for the policy nearest exhaustion', async () => {
    // Five requests with the key creation in beforeAll: within one window's budget.
    const lead = await api.get('/v1/leads?limit=1');
    const responses = [lead, await api.get('/v1/leads/lead_0000000000000000000000000'), await api.post('/v1/leads', { no_such_field: true })];
    expect(responses.map((r) => r.status)).toEqual([200, 404, 422]);
    // The usage stream is hijacked from Fastify; it must carry the fields as well.
    const controller = new AbortController();
    const stream = await fetch(`${limited.baseUrl}/v1/usage/stream`, { headers: { authorization: `Bearer ${limited.apiKey}` }, signal: controller.signal });
    controller.abort();
    expect(stream.status).toBe(200);
    for (const res of [...responses, { status: stream.status, headers: stream.headers } as ApiResponse]) {
      expect(res.headers.get('ratelimit-policy')).toBe(POLICY);
      const { policy, r, t } = rateLimit(res);
      expect(policy).toBe('burst');
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      expect(r).toBeGreaterThanOrEqual(0);
      expect(r).toBeLessThanOrEqual(4);
      expect(t).toBeGreaterThanOrEqual(1);
      expect(t).toBeLessThanOrEqual(2);
    }
  });

  it('are not on routes outside /v1', async () => {
    const res = await fetch(`${limited.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toBeNull();
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('burst limit (5/2s)', () => {
  it('counts down by one per request to a 429, and resets after Retry-After', async () => {
    // First reach a 429 from whatever state earlier tests left, then wait as told: a fresh window.
    const first = await untilLimited();
    await sleep(expectRateLimited(first.at(-1)!) * 1000);

    const seen = await untilLimited();
    expect(rateLimit(seen[0]!).r).toBe(4);
    // The 429 comes after exactly five counted requests in its window: 4, 3, 2, 1, 0 remaining.
    expect(seen.length).toBeGreaterThanOrEqual(6);
    expect(seen.slice(-6, -1).map((res) => rateLimit(res).r)).toEqual([4, 3, 2, 1, 0]);
    for (let i = 1; i < seen.length - 1; i++) {
      const [prev, next] = [rateLimit(seen[i - 1]!).r, rateLimit(seen[i]!).r];
      expect(next === prev - 1 || next === 4, `remaining went from ${prev} to ${next}`).toBe(true);
    }
    const retryAfter = expectRateLimited(seen.at(-1)!);

    // A refused request is not counted, and the limit holds until the window ends.
    const again = await api.get('/v1/leads?limit=1');
    if (again.status === 429) expectRateLimited(again);
    else expect(rateLimit(again).r).toBe(4); // the window had just ended

    await sleep(retryAfter * 1000);
    const after = await api.get('/v1/leads?limit=1');
    expect(after.status).toBe(200);
    expect(rateLimit(after)).toMatchObject({ policy: 'burst', r: 4 });
  });

  it('keeps a separate budget per key', async () => {
    // A key's 429 and a later 429 for the same key bracket the other key's request in one window.
    for (let attempt = 0; attempt < 3; attempt++) {
      expectRateLimited((await untilLimited()).at(-1)!);
      const other = await api.get('/v1/leads?limit=1', { key: secondKey });
      const recheck = await api.get('/v1/leads?limit=1');
      if (recheck.status !== 429) continue; // the window ended in between: try again
      expect(other.status).toBe(200);
      expect(rateLimit(other).policy).toBe('burst');
      expect(rateLimit(other).r).toBeLessThanOrEqual(4);
      expectRateLimited(recheck);
      // The other key has a whole budget of its own: five requests in one window.
      const otherSeen = [other, ...(await untilLimited(secondKey))];
      expect(otherSeen.slice(-6, -1).map((res) => rateLimit(res).r)).toEqual([4, 3, 2, 1, 0]);
      expectRateLimited(otherSeen.at(-1)!);
      return;
    }
    throw new Error('three windows ended mid-check');
  });
});

describe('daily quota (4/1d, no burst limit)', () => {
  it('answers 429 quota_exceeded past the quota, with Retry-After until the day resets', async () => {
    const qApi = apiClient(quota);
    await clearOfWindowEnd(86_400_000); // the quota's day ends at UTC midnight
    const ok: ApiResponse[] = [];
    for (let i = 0; i < 4; i++) ok.push(await qApi.get('/v1/leads?limit=1'));
    expect(ok.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const res of ok) expect(res.headers.get('ratelimit-policy')).toBe('"daily";q=4;w=86400');
    expect(ok.map((r) => rateLimit(r).r)).toEqual([3, 2, 1, 0]);
    expect(ok.map((r) => r.headers.get('x-ratelimit-limit'))).toEqual(['4', '4', '4', '4']);

    for (const path of ['/v1/leads?limit=1', '/v1/usage']) {
      const res = await qApi.get(path);
      expect(res.status).toBe(429);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ type: '/errors/quota_exceeded', code: 'quota_exceeded', status: 429 });
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(86400);
      const secondsToMidnight = Math.ceil((Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) - Date.now()) / 1000);
      expect(Math.abs(retryAfter - secondsToMidnight)).toBeLessThanOrEqual(5);
      expect(rateLimit(res)).toEqual({ policy: 'daily', r: 0, t: retryAfter });
    }
  });
});

describe('limits turned off', () => {
  it('sends no rate limit fields with --rate-limit 0 --quota 0', async () => {
    const uApi = apiClient(unlimited);
    for (let i = 0; i < 12; i++) {
      const res = await uApi.get('/v1/leads?limit=1');
      expect(res.status).toBe(200);
      for (const name of ['ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
        expect(res.headers.get(name), name).toBeNull();
      }
    }
    const usage = await uApi.get('/v1/usage');
    expect(usage.body.quota).toBeNull();
    expect(usage.body.rate_limit).toBeNull();
  });

  it.each([
    ['--rate-limit', 'abc'],
    ['--quota', '100/1x'],
    ['--rate-limit', '0/1s'],
  ])('refuses %s %s with exit code 2', async (option, value) => {
    const error = await startSandboxProcess([option, value]).then(
      (sandbox) => (sandbox.stop(), new Error('it started')),
      (e: Error) => e,
    );
    expect(error.message).toMatch(/exited with 2 before it was ready/);
    expect(error.message).toContain(`${option} <n/window>' argument '${value}' is invalid`);
  });
});
