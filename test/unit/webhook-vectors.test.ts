import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/verify.js';

/**
 * The shared test vectors of the four SDKs (sdks/test-vectors/webhooks.json) are right: the
 * standardwebhooks package (an independent implementation) and the sandbox's own verifier agree
 * with each case's `valid`, at the case's clock.
 */
interface Vector {
  name: string;
  secret: string;
  id: string;
  timestamp: number;
  now: number;
  body: string;
  signature: string;
  valid: boolean;
}
const VECTORS = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'sdks', 'test-vectors', 'webhooks.json'), 'utf8')) as { cases: Vector[] };
const headers = (v: Vector) => ({ 'webhook-id': v.id, 'webhook-timestamp': String(v.timestamp), 'webhook-signature': v.signature });
const accepts = (verify: () => unknown): boolean => {
  try {
    verify();
    return true;
  } catch {
    return false;
  }
};

afterEach(() => vi.useRealTimers());

describe('shared webhook test vectors', () => {
  it('hold valid and invalid cases of every kind', () => {
    expect(VECTORS.cases.filter((v) => v.valid).length).toBeGreaterThanOrEqual(4);
    expect(VECTORS.cases.filter((v) => !v.valid).length).toBeGreaterThanOrEqual(6);
  });

  for (const v of VECTORS.cases) {
    it(`${v.name}: standardwebhooks and the sandbox verifier both say ${v.valid ? 'valid' : 'invalid'}`, () => {
      vi.useFakeTimers({ now: v.now * 1000, toFake: ['Date'] });
      const secret = v.secret.startsWith('whsec_') ? v.secret : `whsec_${v.secret}`;
      expect(accepts(() => new Webhook(secret).verify(v.body, headers(v)))).toBe(v.valid);
      expect(accepts(() => verifyWebhook(secret, headers(v), v.body, v.now * 1000))).toBe(v.valid);
    });
  }
});
