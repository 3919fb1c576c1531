import { afterAll, describe, expect, it } from 'vitest';
import { day, UsageMeter } from '../../src/services/usage.js';
import { openDb } from '../../src/store/db.js';

/** The usage counters' day (docs/reference/limits.md#usage) is the request's UTC day, also when a clock crosses midnight either way. */
describe('usage days', () => {
  const db = openDb(':memory:');
  afterAll(() => db.close());

  it('names the UTC day of a time at both edges of a day, in any order', () => {
    const lastMs = Date.parse('2026-11-26T23:59:59.999Z');
    expect(day(lastMs)).toBe('2026-11-26');
    expect(day(lastMs + 1)).toBe('2026-11-27');
    expect(day(lastMs)).toBe('2026-11-26'); // back again: not the day asked last
    expect(day(Date.parse('2026-11-26T00:00:00.000Z'))).toBe('2026-11-26');
    expect(day(Date.parse('2026-11-26T00:00:00.000Z') - 1)).toBe('2026-11-25');
    expect(day(Date.parse('2027-03-01T12:00:00Z'))).toBe('2027-03-01');
  });

  it('counts each request under the day its clock was in', () => {
    let now = Date.parse('2026-11-26T23:59:59.999Z');
    const meter = new UsageMeter(db, () => now);
    meter.record('key_a', 'GET /v1/leads', 200);
    now += 1;
    meter.record('key_a', 'GET /v1/leads', 200);
    meter.record('key_a', 'GET /v1/leads', 200);
    now = Date.parse('2026-11-26T08:00:00Z'); // a test clock set back
    meter.record('key_a', 'GET /v1/leads', 200);
    expect(meter.rows('2026-11-26').map((r) => r.requests)).toEqual([2]);
    expect(meter.rows('2026-11-27').map((r) => r.requests)).toEqual([2]);
  });
});
