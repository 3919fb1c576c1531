import { describe, expect, it } from 'vitest';
import { randomToken } from '../../src/domain/tokens.js';
import { generateSecret, KEY_PREFIX } from '../../src/services/api-keys.js';

/** The one form of the secrets a user copies (src/domain/tokens.ts): a prefix and base62 characters. */
describe('randomToken', () => {
  it('is the prefix and 43 base62 characters by default, or as many as asked for', () => {
    expect(randomToken('crm_at_')).toMatch(/^crm_at_[0-9A-Za-z]{43}$/);
    expect(randomToken('crm_client_', 24)).toMatch(/^crm_client_[0-9A-Za-z]{24}$/);
    expect(generateSecret()).toMatch(new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{32}$`));
  });

  it('draws from all 62 characters and repeats no token', () => {
    const tokens = Array.from({ length: 2000 }, () => randomToken('', 43));
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(new Set(tokens.join('')).size).toBe(62);
  });
});
