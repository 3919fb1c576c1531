import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { request as httpRequest } from 'node:http';
import { rawRequest } from '../helpers/dashboard.js';

/**
 * A critical finding (docs/security.md#one-rule-for-every-access-decision): access decided on the raw URL. The router percent-decodes paths, so an
 * encoded path runs the same handler as its plain form; each test sends the encoded form with a
 * credential that must not get through, or checks that the encoded form meets the plain form's
 * checks (rate limits, usage, the request log, idempotency, the Host check).
 */
let sandbox: RunningApp;
let api: ApiClient;
let otherKey: string; // the admin key of another account: `*` there, nothing here
let otherAccountId: string;
let defaultAccountId: string;
useApp({ seed: 1 }, (s, a) => ((sandbox = s), (api = a)));
beforeAll(async () => {
  const created = await api.post('/_sandbox/accounts', { name: 'attacker', plan: 'free' });
  expect(created.status).toBe(201);
  otherKey = created.body.api_key;
  otherAccountId = created.body.id;
  defaultAccountId = ((await api.get('/_sandbox/accounts')).body.data as { id: string; name: string }[]).find((a) => a.name === 'Default')!.id;
});

const as = (key: string) => ({ authorization: `Bearer ${key}` });
/** node:http with the path exactly as given (no URL parsing: `//x` stays a path). */
function sendRaw(method: string, path: string, headers: Record<string, string>, body?: string) {
  const { hostname, port } = new URL(sandbox.baseUrl);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, method, path, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject).end(body);
  });
}
const send = (method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) =>
  sendRaw(method, path, { ...as(key), ...headers }, body === undefined ? undefined : JSON.stringify(body));

describe('/_sandbox/* under an encoded path is still for the sandbox admin key alone', () => {
  const encodings = ['/%5Fsandbox', '/%5fsandbox', '/_%73andbox', '/%5F%73%61ndbox'];

  it('another account cannot list the accounts', async () => {
    expect((await send('GET', '/_sandbox/accounts', otherKey)).status).toBe(403);
    for (const prefix of encodings) {
      const res = await send('GET', `${prefix}/accounts`, otherKey);
      expect(res.status, prefix).toBe(403);
      expect(JSON.parse(res.body).code).toBe('insufficient_scope');
      expect(res.body).not.toContain('"Default"');
    }
  });

  it('another account cannot reset the default account, delete accounts, arm faults or move clocks', async () => {
    const before = (await api.get('/v1/leads?limit=1')).body.data[0].id as string;
    const attacks: [string, string, unknown?][] = [
      ['POST', '/%5Fsandbox/reset'],
      ['DELETE', `/%5Fsandbox/accounts/${otherAccountId}`],
      ['POST', '/%5Fsandbox/faults', { path_prefix: '/v1/', status: 503, count: 100 }],
      ['POST', `/%5Fsandbox/accounts/${defaultAccountId}/clock`, { advance: '30d' }],
      ['POST', '/%5Fsandbox/accounts', { name: 'spawned' }],
    ];
    for (const [method, path, body] of attacks) {
      const res = await send(method, path, otherKey, body);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    // Nothing happened: the default account's data and clock, the other account, no fault armed, no new account.
    expect((await api.get(`/_sandbox/accounts/${defaultAccountId}/clock`)).body.offset_seconds).toBe(0);
    expect((await api.get('/v1/leads?limit=1')).body.data[0].id).toBe(before);
    expect((await api.get('/_sandbox/faults')).body.data).toEqual([]);
    const accounts = (await api.get('/_sandbox/accounts')).body.data as { id: string; name: string }[];
    expect(accounts.map((a) => a.id)).toContain(otherAccountId);
    expect(accounts.map((a) => a.name)).not.toContain('spawned');
  });

  it('the sandbox admin key reaches the same route under the encoded path (one rule, not a blocklist)', async () => {
    const res = await send('GET', '/%5Fsandbox/accounts', sandbox.apiKey);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data.length).toBeGreaterThanOrEqual(2);
  });
});

describe('/v1 under an encoded path meets the checks of /v1', () => {
  it('is rate limited and counted against the quota, as /v1/leads is', async () => {
    const used = async () => JSON.parse((await send('GET', '/v1/usage', otherKey)).body).quota.used as number;
    const before = await used(); // this read counts too
    const encoded = await send('GET', '/%761/leads?limit=1', otherKey);
    expect(encoded.status).toBe(200);
    for (const header of ['ratelimit', 'ratelimit-policy', 'x-ratelimit-remaining']) expect(encoded.headers[header], header).toBeDefined();
    await send('GET', '/v%31/leads?limit=1', otherKey);
    expect(await used()).toBe(before + 3); // the usage read, then the two encoded lists
  });

  it('is written to the request log and counted in usage under its route', async () => {
    const marker = `encoded-${Date.now()}`;
    const res = await send('POST', '/%761/leads', otherKey, { first_name: 'Enc', last_name: marker, email: `${marker}@example.com` });
    expect(res.status).toBe(201);
    const id = JSON.parse(res.body).id as string;
    const entry = JSON.parse((await send('GET', `/v1/request_logs/${res.headers['x-request-id']}`, otherKey)).body);
    expect(entry.status, 'the encoded POST is in the request log').toBe(201);
    expect(entry.path).toBe('/v1/leads'); // as routed: a filter on /v1/leads finds it
    expect(JSON.stringify(entry.response_body)).toContain(id);
    const usage = JSON.parse((await send('GET', '/v1/usage', otherKey)).body);
    expect(JSON.stringify(usage)).toContain('POST /v1/leads');
  });

  it('honours an Idempotency-Key across the encoded and the plain path', async () => {
    const key = `idem-enc-${Date.now()}`;
    const body = { first_name: 'Idem', last_name: 'Encoded', email: `${key}@example.com` };
    const first = await send('POST', '/%761/leads', otherKey, body, { 'idempotency-key': key });
    const again = await send('POST', '/v1/leads', otherKey, body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(JSON.parse(again.body).id).toBe(JSON.parse(first.body).id);
  });

  it('fails through faults armed for /v1/leads', async () => {
    expect((await api.post('/_sandbox/faults', { path_prefix: '/v1/leads', status: 503, count: 1 })).status).toBe(201);
    const res = await send('GET', '/%761/leads?limit=1', sandbox.apiKey);
    expect(res.status).toBe(503);
    expect((await api.get('/_sandbox/faults')).body.data).toEqual([]);
  });
});

describe('the dashboard under an encoded path', () => {
  const port = () => new URL(sandbox.baseUrl).port;

  it('refuses a foreign Host (DNS rebinding) as /dashboard/ does', async () => {
    for (const path of ['/%64ashboard/', '/%64ashboard', '/d%61shboard/leads', '/%5Fsandbox/mailbox']) {
      const res = await rawRequest(sandbox.baseUrl, 'GET', path, { host: `evil.test:${port()}`, ...as(sandbox.apiKey) });
      expect(res.status, path).toBe(421);
    }
  });

  it('carries the CSP and no-store under its own Host', async () => {
    const res = await rawRequest(sandbox.baseUrl, 'GET', '/%64ashboard/');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('odd paths get what their plain form gets, or a 4xx', () => {
  it('never reaches a route past its check', async () => {
    const paths = [
      '/_sandbox%2Faccounts',
      '/_sandbox/accounts;',
      '/_sandbox/accounts%00',
      '//_sandbox/accounts',
      '/_SANDBOX/accounts',
      '/v1/../_sandbox/accounts',
      '/v1/%2e%2e/_sandbox/accounts',
    ];
    for (const path of paths) {
      const res = await send('GET', path, otherKey);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.body, path).not.toContain('"Default"');
    }
  });
});
