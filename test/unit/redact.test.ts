import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redact, redactedJson } from '../../src/services/redact.js';

/** The request log's body writer must give exactly what copying, serialising and cutting gave. */
const reference = (value: unknown, limit: number) => JSON.stringify(redact(value)).slice(0, limit);

const key = fc.oneof(fc.string(), fc.constantFrom('secret', 'client_secret', 'Refresh_Token', 'api_key', 'signing_secret', 'name', 'notes', 'password', '__proto__'));
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.constantFrom(`key crm_test_${'a'.repeat(32)} pasted`, 'whsec_' + 'Zm9vYmFy'.repeat(4), 'crm_test_short', 'é 😀 "quoted" \\ \n'),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie('value'), { maxLength: 6 }),
    fc.dictionary(key, tie('value'), { maxKeys: 6 }),
  ),
}));

describe('redactedJson', () => {
  it('is JSON.stringify(redact(value)) cut at the limit, for any JSON-like value and limit', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 8 }), fc.integer({ min: 0, max: 400 }), (body, limit) => {
        expect(redactedJson(body, limit)).toBe(reference(body, limit));
        expect(redactedJson(body, 1e9)).toBe(JSON.stringify(redact(body)));
      }),
      { numRuns: 2000, seed: 16 },
    );
  });

  it('redacts secret fields (also when undefined) and key shapes in text, and stops writing at the limit', () => {
    const out = redactedJson({ secret: 's', token: undefined, nested: [{ client_secret: 'c' }, undefined], note: `crm_test_${'b'.repeat(32)}`, kept: null, api_key: null }, 1e6);
    expect(JSON.parse(out)).toEqual({ secret: '[redacted]', token: '[redacted]', nested: [{ client_secret: '[redacted]' }, null], note: 'crm_test_[redacted]', kept: null, api_key: null });
    // A bulk body far over the limit: the first 64 KB, as before, without serialising the rest.
    const records = Array.from({ length: 20_000 }, (_, i) => ({ first_name: `F${i}`, notes: 'x'.repeat(50), password: 'p' }));
    expect(redactedJson({ records }, 65_536)).toBe(reference({ records }, 65_536));
  });
});
