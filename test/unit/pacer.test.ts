import { describe, expect, it } from 'vitest';
import { Pacer } from '../../src/client/pacer.js';

/** The pacer's reading of the RateLimit fields (docs/reference/limits.md#rate-limits-and-quotas, docs/sync.md#pacing-by-the-servers-limits); no clocks involved but the hold's. */
describe('Pacer', () => {
  it('spaces requests by the strictest policy of a minute or less, at 95 % of its rate', () => {
    const pacer = new Pacer();
    expect(pacer.intervalMs).toBe(0); // nothing known: no spacing
    pacer.observe({ 'ratelimit-policy': '"burst";q=20;w=1, "daily";q=100000;w=86400' });
    expect(pacer.intervalMs).toBeCloseTo(1000 / 20 / 0.95, 6);
    pacer.observe({ 'ratelimit-policy': '"burst";q=100;w=10, "minute";q=300;w=60' });
    expect(pacer.intervalMs).toBeCloseTo(Math.max(10_000 / 100, 60_000 / 300) / 0.95, 6);
  });

  it('does not spread a daily quota: with only one, there is no spacing (the reverted pacer’s bug)', () => {
    const pacer = new Pacer();
    pacer.observe({ 'ratelimit-policy': '"burst";q=20;w=1' });
    expect(pacer.intervalMs).toBeGreaterThan(0);
    pacer.observe({ 'ratelimit-policy': '"daily";q=100000;w=86400' });
    expect(pacer.intervalMs).toBe(0);
  });

  it('holds requests while RateLimit (or X-RateLimit-*) says none remain, but not for a day', () => {
    const pacer = new Pacer();
    const before = Date.now();
    pacer.observe({ ratelimit: '"burst";r=0;t=2' });
    expect(pacer.heldUntilMs).toBeGreaterThanOrEqual(before + 2000);
    const legacy = new Pacer();
    legacy.observe({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' });
    expect(legacy.heldUntilMs).toBeGreaterThanOrEqual(before + 1000);
    const daily = new Pacer();
    daily.observe({ ratelimit: '"daily";r=0;t=43200' });
    expect(daily.heldUntilMs).toBe(0); // a used-up quota is the 429's to report, not a silent wait
    const some = new Pacer();
    some.observe({ ratelimit: '"burst";r=3;t=1' });
    expect(some.heldUntilMs).toBe(0);
  });

  it('holds only until the window it saw begin has ended, when that is sooner than the rounded-up t', () => {
    let now = 50_000;
    const pacer = new Pacer(() => now);
    const policy = { 'ratelimit-policy': '"burst";q=20;w=1, "daily";q=100000;w=86400' };
    pacer.observe({ ...policy, ratelimit: '"burst";r=19;t=1' }); // the first answer of a window: it began no later than now
    now += 250;
    pacer.observe({ ...policy, ratelimit: '"burst";r=7;t=1' });
    now += 150;
    pacer.observe({ ...policy, ratelimit: '"burst";r=0;t=1' });
    expect(pacer.heldUntilMs).toBe(51_000); // the window's end, not now + t (51,400)

    // An answer of the previous window coming late (fewer remaining) does not move the start.
    now += 100;
    pacer.observe({ ...policy, ratelimit: '"burst";r=0;t=1' });
    expect(pacer.heldUntilMs).toBe(51_000);

    // A window it did not see begin (no answer with more remaining since): t, as before.
    now = 53_000;
    pacer.observe({ ...policy, ratelimit: '"burst";r=0;t=1' });
    expect(pacer.heldUntilMs).toBe(54_000);
    // X-RateLimit-* names no policy: t.
    const legacy = new Pacer(() => now);
    legacy.observe({ 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': '1' });
    legacy.observe({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' });
    expect(legacy.heldUntilMs).toBe(54_000);
  });

  it('slows 5 % per 429, to no less than 70 % of the rate', () => {
    const pacer = new Pacer();
    pacer.observe({ 'ratelimit-policy': '"burst";q=10;w=1' });
    pacer.slowDown();
    expect(pacer.intervalMs).toBeCloseTo(100 / (0.95 * 0.95), 6);
    for (let i = 0; i < 50; i++) pacer.slowDown();
    expect(pacer.intervalMs).toBeCloseTo(100 / 0.7, 6);
  });
});
