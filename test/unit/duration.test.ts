import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { duration } from '../../src/cli/arg-parsers.js';
import { sinceArg } from '../../src/cli/since.js';
import { CLOCK_DURATION, parseDuration, SINCE_DURATION } from '../../src/domain/duration.js';
import { parsePolicy } from '../../src/domain/rate-limit.js';

/**
 * The one duration rule (src/domain/duration.ts) and the three places that take a duration: a test
 * clock's `advance` (and `crm sandbox clock advance`), and `--since`. Each keeps the inputs it took.
 */
const S = 1_000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('parseDuration, the test clocks’ form (whole numbers, parts combined)', () => {
  it.each([
    ['30s', 30 * S],
    ['90m', 90 * M],
    ['36h', 36 * H],
    ['7d', 7 * D],
    ['0s', 0],
    ['1d12h', D + 12 * H],
    ['1h30m15s', H + 30 * M + 15 * S],
    ['2h2h', 4 * H],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
    expect(parseDuration(text, CLOCK_DURATION)).toBe(ms);
  });

  it.each(['', '7', 'd', '1.5h', '7D', '7 d', ' 7d', '7d ', '-1d', '7w', '1d 12h', '7d!', 'h1'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('parseDuration, the --since form (one part, fractions allowed)', () => {
  it.each([
    ['30s', 30 * S],
    ['30m', 30 * M],
    ['1h', H],
    ['2d', 2 * D],
    ['1.5h', 1.5 * H],
    ['0.5d', 12 * H],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text, SINCE_DURATION)).toBe(ms);
  });

  it.each(['', '1d12h', '1.h', '.5h', '1', 'h', '1H', ' 1h', '1w', '1,5h'])('refuses %j', (text) => {
    expect(parseDuration(text, SINCE_DURATION)).toBeUndefined();
  });
});

describe('the CLI parsers over it', () => {
  it('duration() (crm sandbox clock advance) passes a clock duration through and refuses anything else with its message', () => {
    expect(duration('1d12h')).toBe('1d12h');
    expect(() => duration('1.5h')).toThrow(new InvalidArgumentError('Expected a duration like 7d, 36h, 90m or 30s (or combined: 1d12h).'));
  });

  it('sinceArg() turns a duration into the time that long ago, trims spaces, takes RFC 3339 times, and refuses the rest', () => {
    const before = Date.now();
    const since = Date.parse(sinceArg(' 1.5h '));
    expect(since).toBeGreaterThanOrEqual(before - 1.5 * H);
    expect(since).toBeLessThanOrEqual(Date.now() - 1.5 * H);
    expect(sinceArg('2026-01-02T03:04:05+01:00')).toBe('2026-01-02T02:04:05.000Z');
    expect(() => sinceArg('1d12h')).toThrow(new InvalidArgumentError('Expected a duration such as 30m, 1h or 7d, or an RFC 3339 time.'));
  });

  it('rate-limit windows use the same units', () => {
    expect(parsePolicy('burst', '100/1s')).toEqual({ name: 'burst', quota: 100, windowSeconds: 1 });
    expect(parsePolicy('burst', '5000/15m')).toEqual({ name: 'burst', quota: 5000, windowSeconds: 900 });
    expect(parsePolicy('daily', '100000/d')).toEqual({ name: 'daily', quota: 100000, windowSeconds: 86_400 });
    expect(parsePolicy('daily', '10/2h')).toEqual({ name: 'daily', quota: 10, windowSeconds: 7200 });
  });
});
