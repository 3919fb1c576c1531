import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { memoize } from '../memo.js';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com), shared by the delivery worker and
 * `crm listen`: the signature is HMAC-SHA256 over "{id}.{timestamp}.{body}", keyed by the bytes of
 * the secret after `whsec_`, base64-encoded and versioned `v1,`.
 */
const SECRET_PREFIX = 'whsec_';

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The key bytes of a `whsec_…` secret; throws on anything else, so a typo never signs silently. */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error(`A webhook secret starts with ${SECRET_PREFIX}.`);
  const base64 = secret.slice(SECRET_PREFIX.length);
  const key = Buffer.from(base64, 'base64');
  if (key.length === 0 || key.toString('base64').replace(/=+$/, '') !== base64.replace(/=+$/, '')) {
    throw new Error('The webhook secret is not valid base64 after whsec_.');
  }
  return key;
}

/**
 * The secret as a KeyObject, made once per secret: with a Buffer key Node 24's createHmac checks it
 * against its CryptoKey type by catching an exception (~35 µs a signature, against ~5 µs; src/sync/mask/mask.ts).
 */
const signingKey = memoize((secret: string) => createSecretKey(secretKey(secret)), { maxEntries: 1000, maxKeyLength: 200 });

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

// A type alias, not an interface, so that it passes where any header record is taken.
export type SignedHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * The three headers of a signed request. With several secrets (during a rotation) the signature
 * header lists one signature per secret, space-separated, so receivers holding either one verify.
 */
export function signedHeaders(secrets: readonly string[], id: string, body: string, now = Date.now()): SignedHeaders {
  const timestamp = Math.floor(now / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signature(s, id, timestamp, body)).join(' '),
  };
}
