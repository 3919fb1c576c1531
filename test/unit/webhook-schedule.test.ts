import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, parseRetryAfter, retryDelayMs } from '../../src/webhooks/schedule.js';

describe('retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after attempts 1..7, and stops after 8', () => {
    const minutes = [1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelayMs(attempt, 1)! / 60_000);
    expect(minutes).toEqual([5 / 60, 5, 30, 120, 300, 600, 600]);
    expect(MAX_ATTEMPTS).toBe(8);
    expect(retryDelayMs(8, 1)).toBeNull();
  });

  it('is multiplied by the time scale', () => {
    expect(retryDelayMs(1, 0.001)).toBe(5);
    expect(retryDelayMs(2, 0.001)).toBe(300);
    expect(retryDelayMs(7, 0.5)).toBe(18_000_000);
    expect(retryDelayMs(8, 0.001)).toBeNull();
  });

  it('takes Retry-After as a lower bound, unscaled, at most a day', () => {
    expect(retryDelayMs(1, 0.001, 2_000)).toBe(2_000);
    expect(retryDelayMs(3, 1, 2_000)).toBe(1_800_000);
    expect(retryDelayMs(1, 1, 10 * 86_400_000)).toBe(86_400_000);
    expect(retryDelayMs(8, 1, 1_000)).toBeNull();
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(['7'], now)).toBe(7_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
