import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  Crm,
  CrmError,
  IdempotencyError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SignatureVerificationError,
  ValidationError,
  Webhook,
} from '../src/index.js';
import { startSandbox, unique, type Sandbox } from './sandbox.js';

/** The hand-written core against live sandboxes: pages, errors, retries, rate limits, webhooks. */
let sandbox: Sandbox;
let limited: Sandbox;
let crm: Crm;
beforeAll(async () => {
  [sandbox, limited] = await Promise.all([startSandbox(['--no-seed']), startSandbox(['--no-seed', '--rate-limit', '2/1s'])]);
  crm = new Crm({ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl });
});
afterAll(async () => {
  await sandbox?.stop();
  await limited?.stop();
});

const caught = async (promise: PromiseLike<unknown>): Promise<CrmError> => {
  try {
    await promise;
  } catch (error) {
    return error as CrmError;
  }
  throw new Error('expected an error');
};

describe('the client', () => {
  it('falls back to CRM_API_KEY and CRM_BASE_URL', async () => {
    process.env.CRM_API_KEY = sandbox.apiKey;
    process.env.CRM_BASE_URL = sandbox.baseUrl;
    try {
      const fromEnv = new Crm();
      expect(fromEnv.baseUrl).toBe(sandbox.baseUrl);
      expect((await fromEnv.pipelines.list()).lastResponse.status).toBe(200);
    } finally {
      delete process.env.CRM_API_KEY;
      delete process.env.CRM_BASE_URL;
    }
  });

  it('walks a list across pages with for await', async () => {
    const tag = unique('paged');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await crm.leads.create({ last_name: `Paged ${i}`, tags: [tag] })).id);
    const first = await crm.leads.list({ tag, limit: 3 });
    expect(first.data).toHaveLength(3);
    expect(first.has_more).toBe(true);
    const seen: string[] = [];
    for await (const lead of crm.leads.list({ tag, limit: 3 })) seen.push(lead.id);
    expect(seen).toEqual(ids); // three pages, in creation order, each record once
  });

  it('raises one error class per family, from real responses', async () => {
    const bad = new Crm({ apiKey: 'crm_test_nope', baseUrl: sandbox.baseUrl, maxRetries: 0 });
    expect(await caught(bad.leads.list())).toBeInstanceOf(AuthenticationError);
    const reader = await crm.apiKeys.create({ name: 'reader', scopes: ['leads:read'] });
    const denied = await caught(crm.leads.create({ first_name: 'x' }, { apiKey: reader.secret }));
    expect(denied).toBeInstanceOf(PermissionError);
    expect(denied.status).toBe(403);
    const missing = await caught(crm.leads.retrieve('lead_00000000000000000000000000'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.requestId).toMatch(/^req_/);
    const won = await crm.deals.create({ title: 't', value: 1, currency: 'EUR', stage: 'won' });
    const transition = await caught(crm.deals.lose(won.id));
    expect(transition).toBeInstanceOf(ConflictError);
    expect(transition.code).toBe('invalid_transition');
    const key = unique('key');
    await crm.leads.create({ first_name: 'one' }, { idempotencyKey: key });
    const reused = await caught(crm.leads.create({ first_name: 'two' }, { idempotencyKey: key }));
    expect(reused).toBeInstanceOf(IdempotencyError);
    expect(reused.code).toBe('idempotency_key_reused');
    const invalid = await caught(crm.leads.create({ email: 'not-an-email' }));
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid.errors[0]?.path).toBe('email');
    await crm.rawRequest('POST', '/_sandbox/faults', { method: 'GET', path_prefix: '/v1/pipelines', status: 500, count: 1 });
    expect(await caught(crm.pipelines.list({ maxRetries: 0 }))).toBeInstanceOf(ApiError);
    const nowhere = new Crm({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
    expect(await caught(nowhere.leads.list())).toBeInstanceOf(ConnectionError);
    for (const error of [denied, missing, reused, invalid]) expect(error).toBeInstanceOf(CrmError);
  });

  it('retries a failed write with the same Idempotency-Key: the server sees it once', async () => {
    await crm.rawRequest('POST', '/_sandbox/faults', { method: 'POST', path_prefix: '/v1/leads', status: 503, count: 2 });
    const email = `${unique('retried')}@example.com`;
    const lead = await crm.leads.create({ email });
    expect(lead.lastResponse.status).toBe(201);
    expect((await crm.leads.list({ email })).data).toHaveLength(1);
    const events = [];
    for await (const event of crm.events.list({ type: 'lead.created' })) if ((event.data.object as { id?: string }).id === lead.id) events.push(event.id);
    expect(events).toHaveLength(1);
  });

  it('keeps the Idempotency-Key and sends its User-Agent on every retry', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      if (seen.length < 3) res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"detail":"busy"}');
      else res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"lead_1"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const local = new Crm({ apiKey: 'k', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      expect((await local.leads.create({ first_name: 'x' })).id).toBe('lead_1');
      expect(seen).toHaveLength(3);
      expect(new Set(seen.map((h) => h['idempotency-key'])).size).toBe(1);
      expect(seen[0]!['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen[0]!['user-agent']).toMatch(/^crm-sdk-typescript\/0\.1\.0 \(node v\d+/);
    } finally {
      server.close();
    }
  });

  it('waits out a 429 (Retry-After) and succeeds; with no retries left it raises RateLimitError', async () => {
    const client = new Crm({ apiKey: limited.apiKey, baseUrl: limited.baseUrl });
    for (let i = 0; i < 5; i++) expect((await client.leads.create({ first_name: `burst ${i}` })).lastResponse.status).toBe(201);
    const usage = await client.usage.retrieve();
    expect(usage.by_status.find((s) => s.status === 429)?.requests ?? 0).toBeGreaterThan(0);
    const impatient = new Crm({ apiKey: limited.apiKey, baseUrl: limited.baseUrl, maxRetries: 0 });
    const errors = await Promise.all(
      [1, 2, 3, 4].map(() =>
        impatient.pipelines.list().then(
          () => undefined,
          (e: unknown) => e as CrmError,
        ),
      ),
    );
    const limitedError = errors.find((e) => e instanceof RateLimitError) as RateLimitError | undefined;
    expect(limitedError?.retryAfter).toBeGreaterThanOrEqual(0);
  });
});

describe('Webhook', () => {
  const vectors = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'test-vectors', 'webhooks.json'), 'utf8')) as {
    cases: { name: string; secret: string; id: string; timestamp: number; now: number; body: string; signature: string; valid: boolean }[];
  };
  for (const v of vectors.cases) {
    it(`passes the shared vector: ${v.name}`, () => {
      const headers = { 'webhook-id': v.id, 'webhook-timestamp': String(v.timestamp), 'webhook-signature': v.signature };
      const verify = () => Webhook.verify(v.secret, headers, v.body, v.now * 1000);
      if (v.valid) expect(verify().id).toBe(JSON.parse(v.body).id);
      else expect(verify).toThrow(SignatureVerificationError);
    });
  }

  it('signs what it verifies', () => {
    const secret = vectors.cases[0]!.secret;
    const now = Math.floor(Date.now() / 1000);
    const body = '{"id":"evt_1","type":"lead.created"}';
    const signature = Webhook.sign(secret, 'msg_1', now, body);
    expect(Webhook.verify(secret, new Headers({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(now), 'webhook-signature': signature }), body).type).toBe(
      'lead.created',
    );
  });
});
