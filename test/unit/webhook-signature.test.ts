import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, secretKey, signature, signedHeaders } from '../../src/domain/webhook-signature.js';
import { verifyWebhook, WebhookVerificationError } from '../../src/webhooks/verify.js';

const body = JSON.stringify({ id: 'evt_01TEST', type: 'deal.won', created_at: '2026-11-21T12:00:00.000Z', data: { object: { id: 'deal_1' } } });

describe('webhook secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(secret)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('refuse anything else', () => {
    expect(() => secretKey('sk_123')).toThrow(/whsec_/);
    expect(() => secretKey('whsec_not base64!')).toThrow(/base64/);
  });
});

describe('signatures', () => {
  it('are what the standardwebhooks library computes and accepts', () => {
    const secret = generateWebhookSecret();
    const headers = signedHeaders([secret], 'evt_01TEST', body);
    const reference = new Webhook(secret);
    expect(headers['webhook-signature']).toBe(reference.sign('evt_01TEST', new Date(Number(headers['webhook-timestamp']) * 1000), body));
    expect(reference.verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('list one signature per secret during a rotation, and either secret verifies', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = signedHeaders([current, previous], 'evt_01TEST', body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) {
      expect(verifyWebhook(secret, headers, body)).toEqual(JSON.parse(body));
      expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    }
    expect(() => verifyWebhook(generateWebhookSecret(), headers, body)).toThrow(WebhookVerificationError);
  });

  it('cover the id and the timestamp, not only the body', () => {
    const secret = generateWebhookSecret();
    expect(signature(secret, 'evt_A', 1_700_000_000, body)).not.toBe(signature(secret, 'evt_B', 1_700_000_000, body));
    expect(signature(secret, 'evt_A', 1_700_000_000, body)).not.toBe(signature(secret, 'evt_A', 1_700_000_001, body));
  });
});

describe('verifyWebhook', () => {
  const secret = generateWebhookSecret();

  it('accepts a fresh, correctly signed request (headers as a plain object or a Headers instance)', () => {
    const headers = signedHeaders([secret], 'evt_01TEST', body);
    expect(verifyWebhook(secret, headers, body)).toEqual(JSON.parse(body));
    expect(verifyWebhook(secret, new Headers({ ...headers }), Buffer.from(body))).toEqual(JSON.parse(body));
    const upper = { 'Webhook-Id': headers['webhook-id'], 'Webhook-Timestamp': headers['webhook-timestamp'], 'Webhook-Signature': headers['webhook-signature'] };
    expect(verifyWebhook(secret, upper, body)).toEqual(JSON.parse(body));
  });

  it('rejects a tampered body, as standardwebhooks does', () => {
    const headers = signedHeaders([secret], 'evt_01TEST', body);
    const tampered = body.replace('deal.won', 'deal.lost');
    expect(() => verifyWebhook(secret, headers, tampered)).toThrow(/No signature matches/);
    expect(() => new Webhook(secret).verify(tampered, { ...headers })).toThrow(/No matching signature/);
  });

  it('rejects a timestamp older than 5 minutes even when the signature is right, as standardwebhooks does', () => {
    const old = Date.now() - 6 * 60_000;
    const headers = signedHeaders([secret], 'evt_01TEST', body, old);
    expect(() => verifyWebhook(secret, headers, body)).toThrow(/old/);
    expect(() => new Webhook(secret).verify(body, { ...headers })).toThrow(/too old/);
    // Within the tolerance it passes: the refusal above is about age, not the signature.
    const recent = signedHeaders([secret], 'evt_01TEST', body, Date.now() - 4 * 60_000);
    expect(verifyWebhook(secret, recent, body)).toEqual(JSON.parse(body));
  });

  it('rejects a timestamp more than 5 minutes in the future', () => {
    const headers = signedHeaders([secret], 'evt_01TEST', body, Date.now() + 6 * 60_000);
    expect(() => verifyWebhook(secret, headers, body)).toThrow(/future/);
  });

  it('rejects a request signed with another id than its webhook-id header', () => {
    const headers = { ...signedHeaders([secret], 'evt_01TEST', body), 'webhook-id': 'evt_OTHER' };
    expect(() => verifyWebhook(secret, headers, body)).toThrow(WebhookVerificationError);
  });

  it('says which header is missing or malformed', () => {
    const headers = signedHeaders([secret], 'evt_01TEST', body);
    expect(() => verifyWebhook(secret, { 'webhook-id': headers['webhook-id'] }, body)).toThrow(/Missing/);
    expect(() => verifyWebhook(secret, { ...headers, 'webhook-timestamp': 'yesterday' }, body)).toThrow(/Unix time/);
    expect(() => verifyWebhook(secret, { ...headers, 'webhook-signature': 'v1,AAAA' }, body)).toThrow(/No signature matches/);
  });

  it('verifies what standardwebhooks signs', () => {
    const now = new Date();
    const sig = new Webhook(secret).sign('msg_1', now, body);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': `v1,bogus ${sig}` };
    expect(verifyWebhook(secret, headers, body)).toEqual(JSON.parse(body));
  });
});
