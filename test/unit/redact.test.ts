import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayHoldSecrets, redact, redactedJson } from '../../src/services/redact.js';
import { BODY_LIMIT, logBody } from '../../src/services/request-log.js';

/** The request log's body writer must give exactly what copying, serialising and cutting gave. */
const reference = (value: unknown, limit: number) => JSON.stringify(redact(value)).slice(0, limit);

const key = fc.oneof(
  fc.string(),
  fc.constantFrom('secret', 'client_secret', 'Refresh_Token', 'api_key', 'signing_secret', 'name', 'notes', 'password', '__proto__'),
);
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
    const out = redactedJson(
      { secret: 's', token: undefined, nested: [{ client_secret: 'c' }, undefined], note: `crm_test_${'b'.repeat(32)}`, kept: null, api_key: null },
      1e6,
    );
    expect(JSON.parse(out)).toEqual({
      secret: '[redacted]',
      token: '[redacted]',
      nested: [{ client_secret: '[redacted]' }, null],
      note: 'crm_test_[redacted]',
      kept: null,
      api_key: null,
    });
    // A bulk body far over the limit: the first 64 KB, as before, without serialising the rest.
    const records = Array.from({ length: 20_000 }, (_, i) => ({ first_name: `F${i}`, notes: 'x'.repeat(50), password: 'p' }));
    expect(redactedJson({ records }, 65_536)).toBe(reference({ records }, 65_536));
  });
});

describe('logBody of a text (a response)', () => {
  // What it gave before texts without secret material were kept as they are: parsed, redacted, written again, cut.
  const slowPath = (text: string) => reference(JSON.parse(text), BODY_LIMIT);

  it('is the redacted JSON it was, for any JSON.stringify text, with or without secrets', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 8 }), (body) => {
        const text = JSON.stringify(body);
        expect(logBody(text)).toBe(slowPath(text));
      }),
      { numRuns: 3000, seed: 27 },
    );
  });

  it('finds secret material in every name SECRET_FIELD redacts, however it is cased or spelled in JSON', () => {
    const names = [
      'secret',
      'Client_Secret',
      'API_KEY',
      'token',
      'access_token',
      'refresh_token',
      'Authorization',
      'password',
      'previous_secret',
      'login_token',
      'code_verifier',
      'signing_secret',
      'x_TOKEN',
    ];
    for (const name of names) {
      const text = JSON.stringify({ [name]: 'v' });
      expect(mayHoldSecrets(text), name).toBe(true);
      expect(logBody(text)).toBe(JSON.stringify({ [name]: '[redacted]' }));
    }
    // A name written with a JSON escape is the same name once parsed: still redacted.
    expect(logBody('{"s\\u0065cret":"v"}')).toBe('{"secret":"[redacted]"}');
    expect(logBody(`{"note":"crm_test_${'c'.repeat(32)}"}`)).toBe('{"note":"crm_test_[redacted]"}');
  });

  it("keeps a request body's text as it was sent when nothing in it can be a secret, and redacts the parsed body when something can", () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 8 }), fc.integer({ min: 0, max: 4 }), (value, indent) => {
        const sent = JSON.stringify(value, null, indent);
        const body: unknown = JSON.parse(sent); // what the server's parser makes of it
        const logged = logBody(body, sent)!;
        // Either way, what is kept reads as the body redacted.
        expect(JSON.parse(logged)).toEqual(JSON.parse(JSON.stringify(redact(body))));
        expect(logged).toBe(mayHoldSecrets(sent) ? reference(body, BODY_LIMIT) : sent);
      }),
      { numRuns: 2000, seed: 31 },
    );
    const records = Array.from({ length: 3000 }, (_, i) => ({ email: `lead${i}@example.com`, notes: 'n'.repeat(40) }));
    const sent = JSON.stringify({ mode: 'upsert', records });
    expect(logBody({ mode: 'upsert', records }, sent)).toBe(sent.slice(0, BODY_LIMIT));
    const withKey = JSON.stringify({ mode: 'upsert', records: [{ notes: `crm_test_${'d'.repeat(32)}` }, ...records] });
    expect(logBody(JSON.parse(withKey), withKey)).toBe(reference(JSON.parse(withKey), BODY_LIMIT));
  });

  it('keeps a text with nothing to redact as it is, cut at 64 KB', () => {
    const results = JSON.stringify({ results: Array.from({ length: 1000 }, (_, index) => ({ index, status: 'created', id: `lead_${index}` })) });
    expect(logBody(results)).toBe(results);
    const long = JSON.stringify({ results: Array.from({ length: 5000 }, (_, index) => ({ index, status: 'created', id: `lead_${index}` })) });
    expect(logBody(long)).toBe(long.slice(0, BODY_LIMIT));
    expect(logBody('not json, no secret')).toBe('not json, no secret');
  });
});
