import { afterEach, describe, expect, it, vi } from 'vitest';
import { nearestExhaustion, parsePolicy, RateLimiter, type Policy, type PolicyState } from '../../src/domain/rate-limit.js';
import { backoffMs, decideRetry, DEFAULT_RETRY, type RetryPolicy } from '../../src/client/retry.js';

describe('parsePolicy', () => {
  it('reads quota and window', () => {
    expect(parsePolicy('burst', '100/1s')).toEqual({ name: 'burst', quota: 100, windowSeconds: 1 });
    expect(parsePolicy('burst', '600/1m')).toEqual({ name: 'burst', quota: 600, windowSeconds: 60 });
    expect(parsePolicy('daily', '100000/1d')).toEqual({ name: 'daily', quota: 100000, windowSeconds: 86400 });
    expect(parsePolicy('burst', '5000/15m')).toEqual({ name: 'burst', quota: 5000, windowSeconds: 900 });
    expect(parsePolicy('burst', '5/2s')).toEqual({ name: 'burst', quota: 5, windowSeconds: 2 });
  });

  it('turns a policy off with 0', () => {
    expect(parsePolicy('burst', '0')).toBeNull();
    expect(parsePolicy('daily', ' 0 ')).toBeNull();
  });

  it.each(['abc', '', '100', '100/', '100/1x', '/1s', '-1/1s', '1.5/1s', '0/1s', '10/0s', '100/1 s'])('rejects %j', (text) => {
    expect(() => parsePolicy('burst', text)).toThrow(/limit/);
  });
});

describe('RateLimiter', () => {
  // A day boundary, so every window (1 s, 60 s, 1 d) starts exactly here.
  const T0 = Date.UTC(2026, 10, 21);
  const burst: Policy = { name: 'burst', quota: 3, windowSeconds: 2 };
  const daily: Policy = { name: 'daily', quota: 100, windowSeconds: 86400 };

  function limiterAt(start: number, policies: Policy[] = [burst, daily]) {
    const clock = { now: start };
    return { clock, limiter: new RateLimiter(policies, () => clock.now) };
  }
  const remaining = (states: PolicyState[], name: string) => states.find((s) => s.policy.name === name)!.remaining;

  it('counts remaining down per request', () => {
    const { limiter } = limiterAt(T0);
    expect(remaining(limiter.hit('key_a').states, 'burst')).toBe(2);
    expect(remaining(limiter.hit('key_a').states, 'burst')).toBe(1);
    const third = limiter.hit('key_a');
    expect(third.refusedBy).toBeNull();
    expect(remaining(third.states, 'burst')).toBe(0);
    expect(remaining(third.states, 'daily')).toBe(97);
  });

  it('refuses the request past the quota and does not count it', () => {
    const { limiter } = limiterAt(T0);
    for (let i = 0; i < 3; i++) expect(limiter.hit('key_a').refusedBy).toBeNull();
    const refused = limiter.hit('key_a');
    expect(refused.refusedBy?.policy.name).toBe('burst');
    expect(refused.refusedBy?.remaining).toBe(0);
    expect(limiter.hit('key_a').refusedBy?.policy.name).toBe('burst');
    // Neither refused request counted against any policy.
    expect(remaining(refused.states, 'daily')).toBe(97);
    expect(limiter.used('key_a', 'burst')?.used).toBe(3);
    expect(limiter.used('key_a', 'daily')?.used).toBe(3);
  });

  it('reports the seconds until the window resets, at least 1', () => {
    const { clock, limiter } = limiterAt(T0);
    const at = (ms: number) => {
      clock.now = T0 + ms;
      return limiter.hit(`key_${ms}`).states.find((s) => s.policy.name === 'burst')!.reset;
    };
    expect(at(0)).toBe(2);
    expect(at(300)).toBe(2);
    expect(at(1000)).toBe(1);
    expect(at(1999)).toBe(1);
    clock.now = T0 + 10_500;
    expect(limiter.hit('key_x').states.find((s) => s.policy.name === 'daily')!.reset).toBe(86400 - 10);
    expect(limiter.used('key_x', 'daily')?.resetsAt).toBe(T0 + 86400_000);
  });

  it('starts a new window when the clock passes the reset', () => {
    const { clock, limiter } = limiterAt(T0 + 500);
    for (let i = 0; i < 3; i++) limiter.hit('key_a');
    const refused = limiter.hit('key_a');
    expect(refused.refusedBy).not.toBeNull();
    clock.now = T0 + 1999;
    expect(limiter.hit('key_a').refusedBy).not.toBeNull();
    clock.now = T0 + 500 + refused.refusedBy!.reset * 1000; // waited Retry-After from the refusal
    const fresh = limiter.hit('key_a');
    expect(fresh.refusedBy).toBeNull();
    expect(remaining(fresh.states, 'burst')).toBe(2);
    expect(remaining(fresh.states, 'daily')).toBe(96); // the daily window did not reset
    expect(limiter.used('key_a', 'burst')?.used).toBe(1);
  });

  it('keeps a budget per subject', () => {
    const { limiter } = limiterAt(T0);
    for (let i = 0; i < 3; i++) limiter.hit('key_a');
    expect(limiter.hit('key_a').refusedBy).not.toBeNull();
    const other = limiter.hit('key_b');
    expect(other.refusedBy).toBeNull();
    expect(remaining(other.states, 'burst')).toBe(2);
  });

  it('refuses with the daily quota when that is used up', () => {
    const { clock, limiter } = limiterAt(T0, [burst, { name: 'daily', quota: 4, windowSeconds: 86400 }]);
    for (let i = 0; i < 4; i++) {
      clock.now += 5000; // a fresh burst window each time
      expect(limiter.hit('key_a').refusedBy).toBeNull();
    }
    clock.now += 5000;
    expect(limiter.hit('key_a').refusedBy?.policy.name).toBe('daily');
    clock.now = T0 + 86400_000;
    expect(limiter.hit('key_a').refusedBy).toBeNull();
  });

  it('reports nothing for an unknown policy', () => {
    expect(limiterAt(T0).limiter.used('key_a', 'hourly')).toBeNull();
  });
});

describe('nearestExhaustion', () => {
  const state = (name: string, quota: number, remaining: number, reset: number): PolicyState => ({
    policy: { name, quota, windowSeconds: 1 },
    remaining,
    reset,
  });

  it('picks the policy with the smallest remaining share', () => {
    expect(nearestExhaustion([state('burst', 10, 5, 1), state('daily', 100, 20, 900)])?.policy.name).toBe('daily');
    expect(nearestExhaustion([state('burst', 10, 1, 1), state('daily', 100, 20, 900)])?.policy.name).toBe('burst');
    expect(nearestExhaustion([state('daily', 100, 99, 900), state('burst', 100, 98, 1)])?.policy.name).toBe('burst');
  });

  it('breaks a tie by the sooner reset', () => {
    expect(nearestExhaustion([state('daily', 100, 0, 900), state('burst', 10, 0, 1)])?.policy.name).toBe('burst');
  });

  it('returns undefined for no policies', () => {
    expect(nearestExhaustion([])).toBeUndefined();
  });
});

describe('client retries', () => {
  const policy: RetryPolicy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 };
  const http = (status: number, headers: Record<string, string | string[]> = {}, code?: string) => ({ status, code, headers });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('retries network errors with backoff', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999999);
    expect(decideRetry({ networkError: true }, 0, policy)).toEqual({ retry: true, delayMs: 100 });
    expect(decideRetry({ networkError: true }, 2, policy)).toEqual({ retry: true, delayMs: 400 });
  });

  it.each([500, 502, 503, 504])('retries %i', (status) => {
    const decision = decideRetry(http(status), 1, policy);
    expect(decision.retry).toBe(true);
    if (decision.retry) expect(decision.delayMs).toBeGreaterThanOrEqual(100);
  });

  it('waits at least the Retry-After of a 503', () => {
    expect(decideRetry(http(503, { 'retry-after': '5' }), 0, policy)).toEqual({ retry: true, delayMs: 5000 });
  });

  it.each([400, 401, 403, 404, 409, 422, 501])('does not retry %i', (status) => {
    expect(decideRetry(http(status, { 'retry-after': '1' }, 'conflict'), 0, policy)).toEqual({ retry: false });
  });

  it('waits Retry-After seconds on 429', () => {
    expect(decideRetry(http(429, { 'retry-after': '2' }, 'rate_limited'), 0, policy)).toEqual({ retry: true, delayMs: 2000 });
  });

  it('waits until a Retry-After HTTP date on 429', () => {
    const now = Date.UTC(2026, 10, 21, 12, 0, 0);
    vi.useFakeTimers({ now, toFake: ['Date'] });
    const header = new Date(now + 7000).toUTCString();
    expect(decideRetry(http(429, { 'retry-after': header }), 0, DEFAULT_RETRY)).toEqual({ retry: true, delayMs: 7000 });
    const past = new Date(now - 60_000).toUTCString();
    expect(decideRetry(http(429, { 'retry-after': past }), 0, DEFAULT_RETRY)).toEqual({ retry: true, delayMs: 0 });
  });

  it('falls back to the t of a RateLimit field on 429', () => {
    expect(decideRetry(http(429, { ratelimit: '"burst";r=0;t=3' }), 0, policy)).toEqual({ retry: true, delayMs: 3000 });
    expect(decideRetry(http(429, { ratelimit: ['"daily";r=0;t=2'] }), 0, policy)).toEqual({ retry: true, delayMs: 2000 });
  });

  it('backs off on a 429 that says nothing, and caps a long Retry-After at 3 × maxDelayMs', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(decideRetry(http(429), 1, policy)).toEqual({ retry: true, delayMs: 100 });
    expect(decideRetry(http(429, { 'retry-after': '3600' }), 0, policy)).toEqual({ retry: true, delayMs: 3000 });
  });

  it('waits on 409 idempotency_key_in_use only', () => {
    expect(decideRetry(http(409, { 'retry-after': '1' }, 'idempotency_key_in_use'), 0, policy)).toEqual({ retry: true, delayMs: 1000 });
    expect(decideRetry(http(409, {}, 'invalid_transition'), 0, policy)).toEqual({ retry: false });
  });

  it('stops after maxRetries', () => {
    expect(decideRetry({ networkError: true }, 2, policy).retry).toBe(true);
    expect(decideRetry({ networkError: true }, 3, policy)).toEqual({ retry: false });
    expect(decideRetry(http(503), 3, policy)).toEqual({ retry: false });
    expect(decideRetry(http(429, { 'retry-after': '1' }), 3, policy)).toEqual({ retry: false });
    expect(decideRetry({ networkError: true }, 0, { ...policy, maxRetries: 0 })).toEqual({ retry: false });
  });

  it('grows the backoff exponentially up to maxDelayMs', () => {
    const top = () => 0.999999;
    expect([0, 1, 2, 3, 4, 5].map((a) => backoffMs(a, policy, top))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect([0, 1, 2].map((a) => backoffMs(a, DEFAULT_RETRY, top))).toEqual([250, 500, 1000]);
  });

  it('jitters within 50–100 % of the exponential delay', () => {
    expect(backoffMs(3, policy, () => 0)).toBe(400);
    const samples = Array.from({ length: 500 }, () => backoffMs(3, policy));
    for (const delay of samples) {
      expect(delay).toBeGreaterThanOrEqual(400);
      expect(delay).toBeLessThanOrEqual(800);
    }
    expect(new Set(samples).size).toBeGreaterThan(10); // it does vary
  });
});
