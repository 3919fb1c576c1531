import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

let sandbox: RunningApp;
let api: ApiClient;

// No rate limit: these tests send bursts, and rate limiting has its own tests.
useApp({ rateLimit: '0', seed: 1 }, (s, a) => {
  sandbox = s;
  api = a;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Makes a key through the API, as the dashboard's Settings → API would. */
async function makeKey(scopes: string[], extra: Record<string, unknown> = {}) {
  const res = await api.post('/v1/api_keys', { name: `test ${scopes.join(' ')}`, scopes, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret: string; prefix: string; last4: string; scopes: string[]; expires_at: string | null };
}

function expectProblem(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ code, status, type: `/errors/${code}` });
}

describe('authentication', () => {
  it('a request without Authorization is 401 unauthenticated with WWW-Authenticate: Bearer realm="crm"', async () => {
    const res = await api.get('/v1/leads', { key: null });
    expectProblem(res, 401, 'unauthenticated');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="crm"');
  });

  it('a wrong, malformed or non-Bearer credential is 401 unauthenticated', async () => {
    const wrongKey = `crm_test_${'A'.repeat(32)}`;
    for (const authorization of [`Bearer ${wrongKey}`, 'Bearer nonsense', `Basic ${Buffer.from('a:b').toString('base64')}`, 'Bearer', `${sandbox.apiKey}`]) {
      const res = await api.get('/v1/leads', { key: null, headers: { authorization } });
      expectProblem(res, 401, 'unauthenticated');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="crm"/);
    }
    expect((await api.get('/v1/leads?limit=1')).status).toBe(200);
  });

  it('/healthz and /v1/openapi.json need no key', async () => {
    const health = await api.get('/healthz', { key: null });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok' });
    const doc = await api.get('/v1/openapi.json', { key: null });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.body.paths)).toContain('/v1/leads');
  });
});

describe('API keys', () => {
  it('returns the secret once, at creation; the list and GET never show it', async () => {
    const key = await makeKey(['leads:read']);
    expect(key.id).toMatch(/^key_/);
    expect(key.secret).toMatch(/^crm_test_[0-9A-Za-z]{32}$/);
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    expect(key.secret.endsWith(key.last4)).toBe(true);
    expect(key.scopes).toEqual(['leads:read']);

    const list = await api.get('/v1/api_keys?limit=1000');
    expect(list.status).toBe(200);
    const listed = list.body.data.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({ id: key.id, prefix: key.prefix, last4: key.last4, revoked_at: null });
    for (const item of list.body.data) expect(item).not.toHaveProperty('secret');
    expect(list.text).not.toContain(key.secret);
    expect(list.text).not.toContain(sandbox.apiKey);

    const one = await api.get(`/v1/api_keys/${key.id}`);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('secret');
    expect(one.text).not.toContain(key.secret);
  });

  it('records when a key was last used', async () => {
    const key = await makeKey(['deals:read']);
    expect((await api.get(`/v1/api_keys/${key.id}`)).body.last_used_at).toBeNull();
    expect((await api.get('/v1/deals?limit=1', { key: key.secret })).status).toBe(200);
    expect((await api.get(`/v1/api_keys/${key.id}`)).body.last_used_at).toEqual(expect.any(String));
  });

  it('refuses unknown scopes and an expires_at in the past (422)', async () => {
    expectProblem(await api.post('/v1/api_keys', { name: 'bad', scopes: ['leads:admin'] }), 422, 'validation_failed');
    expectProblem(await api.post('/v1/api_keys', { name: 'bad', scopes: [] }), 422, 'validation_failed');
    const past = new Date(Date.now() - 60_000).toISOString();
    expectProblem(await api.post('/v1/api_keys', { name: 'old', scopes: ['leads:read'], expires_at: past }), 422, 'validation_failed');
  });

  it('a revoked key fails with 401 on the very next request', async () => {
    const key = await makeKey(['leads:read']);
    expect((await api.get('/v1/leads?limit=1', { key: key.secret })).status).toBe(200);
    const revoked = await api.delete(`/v1/api_keys/${key.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expectProblem(await api.get('/v1/leads?limit=1', { key: key.secret }), 401, 'unauthenticated');
    expect((await api.get(`/v1/api_keys/${key.id}`)).body.revoked_at).toBe(revoked.body.revoked_at);
  });

  it('an expired key fails with 401 once expires_at has passed', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const key = await makeKey(['leads:read'], { expires_at: expiresAt });
    expect(key.expires_at).toBe(expiresAt);
    expect((await api.get('/v1/leads?limit=1', { key: key.secret })).status).toBe(200);
    await sleep(Date.parse(expiresAt) - Date.now() + 100);
    expectProblem(await api.get('/v1/leads?limit=1', { key: key.secret }), 401, 'unauthenticated');
  });
});

describe('scopes', () => {
  it('a leads:read key can read leads but not write them (403 insufficient_scope)', async () => {
    const key = await makeKey(['leads:read']);
    expect((await api.get('/v1/leads?limit=1', { key: key.secret })).status).toBe(200);
    const res = await api.post('/v1/leads', { first_name: 'Nope' }, { key: key.secret });
    expectProblem(res, 403, 'insufficient_scope');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="leads:write"');
    const lead = (await api.post('/v1/leads', { first_name: 'Admin made' })).body;
    expectProblem(await api.patch(`/v1/leads/${lead.id}`, { first_name: 'x' }, { key: key.secret }), 403, 'insufficient_scope');
    expectProblem(await api.delete(`/v1/leads/${lead.id}`, { key: key.secret }), 403, 'insufficient_scope');
    expect((await api.get(`/v1/leads/${lead.id}`)).body.first_name).toBe('Admin made');
  });

  it('leads:write implies leads:read', async () => {
    const key = await makeKey(['leads:write']);
    const created = await api.post('/v1/leads', { first_name: 'Writer' }, { key: key.secret });
    expect(created.status).toBe(201);
    expect((await api.get(`/v1/leads/${created.body.id}`, { key: key.secret })).status).toBe(200);
    expect((await api.get('/v1/leads?limit=1', { key: key.secret })).status).toBe(200);
  });

  it('a deals key cannot read clients or leads', async () => {
    const key = await makeKey(['deals:write']);
    expect((await api.get('/v1/deals?limit=1', { key: key.secret })).status).toBe(200);
    const res = await api.get('/v1/clients?limit=1', { key: key.secret });
    expectProblem(res, 403, 'insufficient_scope');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="clients:read"');
    expectProblem(await api.get('/v1/leads', { key: key.secret }), 403, 'insufficient_scope');
  });

  it('a key without keys:write cannot make keys', async () => {
    const key = await makeKey(['leads:write', 'keys:read']);
    expect((await api.get('/v1/api_keys', { key: key.secret })).status).toBe(200);
    const res = await api.post('/v1/api_keys', { name: 'escalate', scopes: ['*'] }, { key: key.secret });
    expectProblem(res, 403, 'insufficient_scope');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="keys:write"');
  });

  it('a key can only hand out scopes it holds itself', async () => {
    const key = await makeKey(['keys:write', 'leads:read']);
    const narrower = await api.post('/v1/api_keys', { name: 'narrower', scopes: ['leads:read'] }, { key: key.secret });
    expect(narrower.status, narrower.text).toBe(201);
    for (const scopes of [['*'], ['leads:write'], ['deals:read']]) {
      const res = await api.post('/v1/api_keys', { name: 'escalate', scopes }, { key: key.secret });
      expectProblem(res, 403, 'insufficient_scope');
      expect(res.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${scopes[0]}"`);
    }
  });
});

describe('X-Request-Id', () => {
  it('is on every response, successful or not, and differs per request', async () => {
    const leadsReader = await makeKey(['leads:read']);
    const responses = [
      await api.get('/v1/leads?limit=1'),
      await api.get('/v1/leads', { key: null }),
      await api.get('/v1/leads', { key: `crm_test_${'B'.repeat(32)}` }),
      await api.post('/v1/leads', { first_name: 'x' }, { key: leadsReader.secret }),
      await api.get('/v1/leads/lead_00000000000000000000000000'),
      await api.get('/v1/no-such-route'),
      await api.post('/v1/leads', {}),
      await api.get('/healthz', { key: null }),
      await api.get('/v1/openapi.json', { key: null }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 401, 403, 404, 404, 422, 200, 200]);
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of responses.filter((x) => x.status >= 400)) expect(r.body.request_id).toBe(r.headers.get('x-request-id'));
  });
});
