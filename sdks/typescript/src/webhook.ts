/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `webhook-signature` lists
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` entries, keyed by the secret after `whsec_`.
 * verify accepts any listed signature (two during a rotation), compares in constant time and refuses
 * a timestamp more than 5 minutes from now.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { SignatureVerificationError } from './errors.js';
import type { Event } from './generated/models.js';

const TOLERANCE_S = 5 * 60;

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  return Array.isArray(value) ? value.join(' ') : value;
}

/**
 * The key bytes after `whsec_`, as a KeyObject: Node 24's createHmac checks a Buffer key against its
 * CryptoKey type by catching an exception (~35 µs a signature, against ~8 µs with this).
 */
function key(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64'));
}

export const Webhook = {
  /** The `webhook-signature` value for a message: `v1,<base64>`. For tests and local senders. */
  sign(secret: string, id: string, timestamp: number, body: string): string {
    return `v1,${createHmac('sha256', key(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
  },

  /** Checks the signature of a delivery and returns its event; throws SignatureVerificationError. */
  verify(secret: string, headers: HeaderSource, rawBody: string | Buffer, now: number = Date.now()): Event {
    const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signatures = header(headers, 'webhook-signature');
    if (!id || !timestamp || !signatures) throw new SignatureVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header.');
    const seconds = Number(timestamp);
    if (!/^\d+$/.test(timestamp) || Math.abs(now / 1000 - seconds) > TOLERANCE_S)
      throw new SignatureVerificationError('The webhook timestamp is more than 5 minutes from now.');
    const expected = Buffer.from(Webhook.sign(secret, id, seconds, body).slice(3), 'base64');
    const matches = signatures.split(' ').some((entry) => {
      const [version, value] = entry.split(',', 2);
      if (version !== 'v1' || !value) return false;
      const given = Buffer.from(value, 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!matches) throw new SignatureVerificationError('No signature matches: check the endpoint secret (whsec_…) and pass the raw body.');
    try {
      return JSON.parse(body) as Event;
    } catch {
      throw new SignatureVerificationError('The signed body is not JSON.');
    }
  },
};
