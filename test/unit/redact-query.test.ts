import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactQuery, redactText } from '../../src/services/redact.js';

/** The request log's query strings (docs/security.md#what-is-stored-how): secrets go, everything else stays as sent. */
const base62 = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'), minLength: length, maxLength: length });

/** Our secrets as src/services makes them: API keys, OAuth tokens, codes, client secrets, webhook secrets. */
const ourSecret = fc.oneof(
  base62(32).map((s) => `crm_test_${s}`),
  fc.tuple(fc.constantFrom('at', 'rt', 'ac', 'cs'), base62(43)).map(([kind, s]) => `crm_${kind}_${s}`),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `whsec_${Buffer.from(b).toString('base64')}`),
);

/** Ways a client may put a value in a URL: as is, percent-encoded, or with every character encoded. */
const encodings: ((s: string) => string)[] = [
  (s) => s,
  encodeURIComponent,
  (s) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
];

/** Harmless parameters: names no secret field has, values no secret looks like. */
const harmlessName = fc.constantFrom('q', 'limit', 'cursor', 'status', 'email', 'tag', 'created_after', 'path_prefix', 'sort', 'a b', 'é');
const harmlessValue = fc.string({ maxLength: 30 }).filter((v) => redactText(v) === v);
const harmless = fc.tuple(harmlessName, harmlessValue).map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`);

describe('redactQuery', () => {
  it('leaves a query without secrets exactly as sent', () => {
    fc.assert(
      fc.property(fc.array(harmless, { maxLength: 6 }), (pairs) => {
        const query = pairs.join('&');
        expect(redactQuery(query)).toBe(query);
      }),
      { numRuns: 1000, seed: 23 },
    );
  });

  it('never keeps one of our secrets, however encoded and whatever its parameter, and keeps every other parameter', () => {
    fc.assert(
      fc.property(
        fc.array(harmless, { maxLength: 4 }),
        fc.array(harmless, { maxLength: 4 }),
        fc.oneof(harmlessName, fc.constantFrom('api_key', 'key', 'note')),
        ourSecret,
        fc.constantFrom(...encodings),
        (before, after, name, secret, encode) => {
          const query = [...before, `${name}=${encode(secret)}`, ...after].join('&');
          const out = redactQuery(query);
          expect(out).toBe([...before, `${name}=[redacted]`, ...after].join('&'));
          expect(decodeURIComponent(out)).not.toContain(secret.slice(-20));
          expect(redactQuery(out)).toBe(out); // redacting twice changes nothing
        },
      ),
      { numRuns: 2000, seed: 23 },
    );
  });

  it('redacts the value of every secret-named parameter, as bodies are (the name compared decoded, any case)', () => {
    for (const name of [
      'api_key',
      'API_KEY',
      'api%5Fkey',
      'access_token',
      'refresh_token',
      'token',
      'client_secret',
      'signing_secret',
      'login_token',
      'password',
      'code_verifier',
    ]) {
      expect(redactQuery(`limit=5&${name}=hunter2&q=acme`), name).toBe(`limit=5&${name}=[redacted]&q=acme`);
    }
    expect(redactQuery('api_key=&q=x')).toBe('api_key=&q=x'); // nothing to hide
    expect(redactQuery('q=my+token+is+here&tokens=3')).toBe('q=my+token+is+here&tokens=3'); // words and other names are no secrets
  });

  it('redacts a secret sent as a bare name or used as a name, and leaves public client ids', () => {
    const key = `crm_test_${'A1'.repeat(16)}`;
    expect(redactQuery(`${key}&limit=1`)).toBe('[redacted]&limit=1');
    expect(redactQuery(`${key}=1`)).toBe('[redacted]=1');
    const clientId = `crm_client_${'x'.repeat(24)}`;
    expect(redactQuery(`client_id=${clientId}`)).toBe(`client_id=${clientId}`);
  });

  it('keeps separators, empty parts and stray percent signs as sent', () => {
    expect(redactQuery('')).toBe('');
    expect(redactQuery('&&a=1&=&b')).toBe('&&a=1&=&b');
    expect(redactQuery('q=100%&token=%ZZ')).toBe('q=100%&token=[redacted]');
  });
});

describe('redactText', () => {
  it('keeps the prefix of each of our secrets in free text and drops the rest', () => {
    const at = `crm_at_${'b'.repeat(43)}`;
    expect(redactText(`use ${at} or crm_cs_${'c'.repeat(43)}`)).toBe('use crm_at_[redacted] or crm_cs_[redacted]');
    expect(redactText(`key crm_test_${'d'.repeat(32)}.`)).toBe('key crm_test_[redacted].');
    expect(redactText('crm_at_short crm_client_abc')).toBe('crm_at_short crm_client_abc');
  });
});
