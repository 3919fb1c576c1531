import { timingSafeEqual } from 'node:crypto';
import { signature } from '../domain/webhook-signature.js';

/** Receivers should refuse older (and future) timestamps: it bounds how long a captured request can be replayed. */
const TOLERANCE_SECONDS = 5 * 60;

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

/**
 * Checks a webhook from the crm sandbox (or `crm listen`) in a receiver, as stripe-node's
 * Webhooks.constructEvent does: the timestamp within 5 minutes of now, then any of the
 * space-separated `v1,` signatures equal to ours, compared in constant time. Pass the raw body,
 * exactly as received: re-serialised JSON may differ by a byte and fail. Returns the parsed event;
 * throws WebhookVerificationError saying what is wrong otherwise.
 *
 *   const event = verifyWebhook(process.env.WEBHOOK_SECRET, req.headers, rawBody);
 */
export function verifyWebhook(secret: string, headers: HeaderBag, body: string | Buffer, now = Date.now()): unknown {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header.');
  }
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a Unix time in seconds.');
  const age = Math.floor(now / 1000) - Number(timestamp);
  if (age > TOLERANCE_SECONDS)
    throw new WebhookVerificationError(`The webhook timestamp is ${age} s old (more than ${TOLERANCE_SECONDS} s): refusing a possible replay.`);
  if (age < -TOLERANCE_SECONDS) throw new WebhookVerificationError(`The webhook timestamp is ${-age} s in the future (more than ${TOLERANCE_SECONDS} s).`);
  const text = typeof body === 'string' ? body : body.toString('utf8');
  let expected: Buffer;
  try {
    expected = Buffer.from(signature(secret, id, Number(timestamp), text));
  } catch (error) {
    throw new WebhookVerificationError((error as Error).message);
  }
  const match = signatures.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!match) throw new WebhookVerificationError('No signature matches: check the secret, and pass the raw request body unchanged.');
  try {
    return JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('The signature is valid but the body is not JSON.');
  }
}
