import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, filterFingerprint } from '../../src/domain/cursor.js';
import { IdGenerator } from '../../src/domain/ids.js';

describe('cursors', () => {
  const secret = 'test-secret';
  const fp = filterFingerprint({ status: 'new', sort: 'created' });

  it('round-trips a position', () => {
    const cursor = encodeCursor(secret, fp, { after: ['lead_01ABC'] });
    expect(decodeCursor(secret, fp, cursor)).toEqual({ after: ['lead_01ABC'] });
  });

  it('binds a cursor to its filters', () => {
    const cursor = encodeCursor(secret, fp, { after: ['lead_01ABC'] });
    const other = filterFingerprint({ status: 'qualified', sort: 'created' });
    expect(() => decodeCursor(secret, other, cursor)).toThrow(/other filters/);
  });

  it('detects tampering and foreign secrets', () => {
    const cursor = encodeCursor(secret, fp, { after: ['lead_01ABC'] });
    const forged = Buffer.from(JSON.stringify({ a: ['lead_01ZZZ'], f: fp })).toString('base64url') + '.' + cursor.split('.')[1];
    expect(() => decodeCursor(secret, fp, forged)).toThrow(/altered/);
    expect(() => decodeCursor('another-secret', fp, cursor)).toThrow(/altered/);
    expect(() => decodeCursor(secret, fp, 'garbage')).toThrow(/malformed/);
  });

  it('ignores filters that were not given', () => {
    expect(filterFingerprint({ a: 1, b: undefined })).toBe(filterFingerprint({ a: 1 }));
  });
});

describe('ids', () => {
  it('are prefixed and sort by creation, also within one millisecond', () => {
    const ids = new IdGenerator(() => 1_800_000_000_000);
    const made = Array.from({ length: 1000 }, () => ids.next('lead'));
    expect(made.every((id) => /^lead_[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true);
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
  });

  it('sort by time across milliseconds', () => {
    let now = 1_800_000_000_000;
    const ids = new IdGenerator(() => now);
    const a = ids.next('deal');
    now += 1;
    const b = ids.next('deal');
    expect(a < b).toBe(true);
  });

  it('carry the low random half into the high one within a millisecond, spelled as a reference encoder spells them', () => {
    const base32 = (value: bigint, length: number) => {
      let out = '';
      for (let i = 0; i < length; i++, value /= 32n) out = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Number(value % 32n)] + out;
      return out;
    };
    const half = 2n ** 40n;
    const time = 1_800_000_000_000;
    // random() >> 1 = high 5, low 2^40 - 2: the third id of the millisecond carries into high.
    const ids = new IdGenerator(
      () => time,
      () => ((5n * half) | (half - 2n)) << 1n,
    );
    const made = [ids.next('lead'), ids.next('lead'), ids.next('lead')];
    const expected = [
      [5n, half - 2n],
      [5n, half - 1n],
      [6n, 0n],
    ].map(([high, low]) => `lead_${base32(BigInt(time), 10)}${base32(high!, 8)}${base32(low!, 8)}`);
    expect(made).toEqual(expected);
    expect([...made].sort()).toEqual(made);
  });

  it('draw new system randomness each millisecond, keeping head-room in the high half', () => {
    let now = 1_800_000_000_000;
    const ids = new IdGenerator(() => now++);
    // 2,000 ids: several refills of the random pool (4 KB, 10 bytes an id).
    const randomParts = Array.from({ length: 2000 }, () => ids.next('req').slice(14));
    expect(new Set(randomParts).size).toBe(randomParts.length);
    // The high half is 39 bits: its first base32 digit is below 16, so a carry never reaches the time.
    expect(randomParts.every((part) => '0123456789ABCDEF'.includes(part[0]!))).toBe(true);
    // and not stuck at 0: 39 random bits fill the other digits.
    expect(new Set(randomParts.map((part) => part[0])).size).toBeGreaterThan(8);
  });

  it('are the same for the same clock and random source', () => {
    const make = () =>
      new IdGenerator(
        () => 1_800_000_000_000,
        () => 42n,
      ).next('cli');
    expect(make()).toBe(make());
  });
});
