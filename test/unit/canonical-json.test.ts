import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonDigest } from '../../src/services/idempotency.js';

/** The idempotency fingerprint's body (docs/reference/limits.md#idempotency): one JSON value, one spelling, whatever the member order. */
describe('canonicalJson', () => {
  it('sorts members by name at every depth, and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
    expect(canonicalJson('é"\n')).toBe(JSON.stringify('é"\n'));
  });

  it('is the same for any member order, and parses back to the same value', () => {
    const shuffled = (value: unknown, seed: number): unknown => {
      if (Array.isArray(value)) return value.map((item) => shuffled(item, seed));
      if (value === null || typeof value !== 'object') return value;
      const entries = Object.entries(value).map(([k, v]) => [k, shuffled(v, seed)] as const);
      entries.sort(() => ((seed = (seed * 16807) % 2147483647) % 3) - 1);
      return Object.fromEntries(entries);
    };
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 2 ** 30 }), (value, seed) => {
        const plain = JSON.parse(JSON.stringify(value)) as unknown; // -0 and friends as JSON has them
        expect(canonicalJson(shuffled(plain, seed))).toBe(canonicalJson(plain));
        expect(JSON.parse(canonicalJson(plain))).toEqual(plain);
      }),
      { seed: 26, numRuns: 300 },
    );
  });

  it('is the sorted-members text also where it takes the JSON.stringify path (members already in order)', () => {
    // Written independently of the code under test: sort every object's names, join.
    const reference = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
      if (value === null || typeof value !== 'object') return JSON.stringify(value);
      const object = value as Record<string, unknown>;
      return `{${Object.keys(object)
        .sort()
        .map((name) => `${JSON.stringify(name)}:${reference(object[name])}`)
        .join(',')}}`;
    };
    const sortedDeep = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(sortedDeep);
      if (value === null || typeof value !== 'object') return value;
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((name) => [name, sortedDeep((value as Record<string, unknown>)[name])]),
      );
    };
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const plain = JSON.parse(JSON.stringify(value)) as unknown;
        expect(canonicalJson(sortedDeep(plain))).toBe(reference(plain));
        expect(canonicalJson({ records: [sortedDeep(plain), plain] })).toBe(reference({ records: [plain, plain] }));
      }),
      { seed: 27, numRuns: 500 },
    );
    // A batch as `crm sync` sends it: records with their members in order, one level of nesting.
    const record = { custom_fields: { score: 1, tier: 'b' }, email: 'a@example.com', tags: ['x', 'y'], zip: null };
    expect(canonicalJson({ records: [record] })).toBe(`{"records":[${JSON.stringify(record)}]}`);
    expect(canonicalJson({ records: [{ ...record, custom_fields: { tier: 'b', score: 1 } }] })).toBe(`{"records":[${JSON.stringify(record)}]}`);
  });
});

describe('canonicalJsonDigest', () => {
  it("is the SHA-256 of canonicalJson's text, for small values and for a bulk body hashed in pieces", () => {
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    const records = Array.from({ length: 2000 }, (_, i) => ({ name: `Lead ${i} Zoë`, email: `l${i}@example.com`, tags: ['a', i], custom: { z: i, a: null } }));
    for (const value of [null, 'x', [], {}, { b: 1, a: [2] }, { mode: 'upsert', records }]) {
      expect(canonicalJsonDigest(value)).toBe(sha256(canonicalJson(value)));
    }
    expect(canonicalJson({ records }).length).toBeGreaterThan(100_000); // so the pieces were many
  });
});
