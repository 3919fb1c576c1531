import { describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';
import { DASHBOARD, rawRequest } from '../helpers/dashboard.js';
import { postForm, REDIRECT } from '../helpers/oauth.js';
import { apiClient, type ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

/**
 * Key management (docs/security.md#keys-tokens-and-sessions): a key manages only keys (and OAuth apps) whose scopes
 * are within its own, and never mints one that outlives it. Each test is the attack, made with a
 * narrower or shorter-lived key against a real sandbox process, and checks that it is refused and
 * changed nothing.
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({ seed: 1 }, (s, a) => ((sandbox = s), (api = a)));

interface MadeKey {
  id: string;
  secret: string;
  scopes: string[];
  expires_at: string | null;
}

/** A key made by the sandbox's admin key (scope `*`). */
async function adminKey(scopes: string[], expiresAt?: string): Promise<MadeKey> {
  const res = await api.post('/v1/api_keys', { name: `made with ${scopes.join(' ')}`, scopes, ...(expiresAt ? { expires_at: expiresAt } : {}) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const as = (secret: string) => apiClient({ baseUrl: sandbox.baseUrl, apiKey: secret });
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

async function expectStillWorks(key: MadeKey): Promise<void> {
  expect((await as(key.secret).get('/v1/leads?limit=1')).status).toBe(200);
  expect((await api.get(`/v1/api_keys/${key.id}`)).body.revoked_at).toBeNull();
}

function expectRefusedFor(res: { status: number; body: any; headers: Headers }, scope: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body.code).toBe('insufficient_scope');
  expect(res.body.detail).toContain(`'${scope}'`);
  expect(res.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${scope}"`);
}

function expectOutlivesCreator(res: { status: number; body: any }, latest: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.code).toBe('validation_failed');
  expect(res.body.errors).toEqual([expect.objectContaining({ path: 'expires_at', code: 'outlives_creator' })]);
  expect(res.body.detail).toContain(latest); // the longest expiry allowed, so the caller can retry with it
}

describe('a key with keys:write cannot manage keys broader than itself', () => {
  it('cannot revoke a * key: 403 naming *, and the * key keeps working', async () => {
    const victim = await adminKey(['*']);
    const attacker = await adminKey(['keys:write']);
    expectRefusedFor(await as(attacker.secret).delete(`/v1/api_keys/${victim.id}`), '*');
    await expectStillWorks(victim);
  });

  it('cannot revoke a key holding a scope it lacks, may revoke keys within its scopes (and itself)', async () => {
    const attacker = await adminKey(['keys:write', 'leads:read']);
    const writer = await adminKey(['leads:write']);
    expectRefusedFor(await as(attacker.secret).delete(`/v1/api_keys/${writer.id}`), 'leads:write');
    await expectStillWorks(writer);

    const reader = await adminKey(['leads:read']);
    expect((await as(attacker.secret).delete(`/v1/api_keys/${reader.id}`)).status).toBe(200);
    expect((await as(reader.secret).get('/v1/leads?limit=1')).status).toBe(401);
    expect((await as(attacker.secret).delete(`/v1/api_keys/${attacker.id}`)).status).toBe(200);
  });

  it('cannot create a * key, nor one with a scope it lacks', async () => {
    const attacker = await adminKey(['keys:write']);
    expectRefusedFor(await as(attacker.secret).post('/v1/api_keys', { name: 'escalate', scopes: ['*'] }), '*');
    expectRefusedFor(await as(attacker.secret).post('/v1/api_keys', { name: 'escalate', scopes: ['keys:write', 'logs:read'] }), 'logs:read');
    expect((await api.get('/v1/api_keys?limit=100')).body.data.map((k: { name: string }) => k.name)).not.toContain('escalate');
  });

  it('has no way to change a key in place (no update operation to escalate through)', async () => {
    const attacker = await adminKey(['keys:write']);
    const victim = await adminKey(['*']);
    const res = await as(attacker.secret).patch(`/v1/api_keys/${victim.id}`, { scopes: ['leads:read'] });
    expect([404, 405]).toContain(res.status);
    expect((await api.get(`/v1/api_keys/${victim.id}`)).body.scopes).toEqual(['*']);
  });

  it('may still list keys (reading is keys:read, which keys:write implies)', async () => {
    const attacker = await adminKey(['keys:write']);
    expect((await as(attacker.secret).get('/v1/api_keys')).status).toBe(200);
  });
});

describe('a key never mints a key that outlives it', () => {
  it('a key expiring in 2 minutes cannot create a key without expiry or expiring later (422 naming the latest allowed)', async () => {
    const parent = await adminKey(['keys:write', 'leads:read'], inMinutes(2));
    const latest = parent.expires_at!;
    expectOutlivesCreator(await as(parent.secret).post('/v1/api_keys', { name: 'forever', scopes: ['leads:read'] }), latest);
    expectOutlivesCreator(await as(parent.secret).post('/v1/api_keys', { name: 'later', scopes: ['leads:read'], expires_at: inMinutes(60) }), latest);
    const names = (await api.get('/v1/api_keys?limit=100')).body.data.map((k: { name: string }) => k.name);
    expect(names).not.toContain('forever');
    expect(names).not.toContain('later');
  });

  it('within bounds it works: an earlier expiry, or exactly the parent’s', async () => {
    const parent = await adminKey(['keys:write', 'leads:read'], inMinutes(2));
    const earlier = await as(parent.secret).post('/v1/api_keys', { name: 'earlier', scopes: ['leads:read'], expires_at: inMinutes(1) });
    expect(earlier.status, earlier.text).toBe(201);
    expect((await as(earlier.body.secret).get('/v1/leads?limit=1')).status).toBe(200);
    const same = await as(parent.secret).post('/v1/api_keys', { name: 'same', scopes: ['leads:read'], expires_at: parent.expires_at });
    expect(same.status, same.text).toBe(201);
    expect(same.body.expires_at).toBe(parent.expires_at);
  });

  it('a key that expires cannot register an OAuth app (apps never expire; their client credentials would outlive it)', async () => {
    const parent = await adminKey(['keys:write', 'leads:read'], inMinutes(2));
    const res = await as(parent.secret).post('/v1/oauth_apps', { name: 'forever app', redirect_uris: [REDIRECT], scopes: ['leads:read'] });
    expect(res.status, res.text).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
    expect(res.body.detail).toContain(parent.expires_at);
    expect((await api.get('/v1/oauth_apps?limit=100')).body.data.map((a: { name: string }) => a.name)).not.toContain('forever app');
  });
});

describe('OAuth apps: the same rule', () => {
  it('a keys:write key cannot delete an app holding scopes it lacks; the app’s tokens keep working', async () => {
    const app = await api.post('/v1/oauth_apps', { name: 'broad app', redirect_uris: [REDIRECT], scopes: ['leads:write', 'deals:read'] });
    const token = await postForm(`${sandbox.baseUrl}/oauth/token`, {
      grant_type: 'client_credentials',
      client_id: app.body.client_id,
      client_secret: app.body.client_secret,
    });
    const { access_token } = (await token.json()) as { access_token: string };
    const attacker = await adminKey(['keys:write', 'leads:write']);
    expectRefusedFor(await as(attacker.secret).delete(`/v1/oauth_apps/${app.body.id}`), 'deals:read');
    expect((await as(access_token).get('/v1/deals?limit=1')).status).toBe(200);
  });
});

describe('an OAuth access token with keys:write is bound alike (it lives 1 hour)', () => {
  it('cannot revoke a * key, create a key that outlives it, or register an app', async () => {
    const app = await api.post('/v1/oauth_apps', { name: 'key manager', redirect_uris: [REDIRECT], scopes: ['keys:write', 'leads:read'] });
    const token = await postForm(`${sandbox.baseUrl}/oauth/token`, {
      grant_type: 'client_credentials',
      client_id: app.body.client_id,
      client_secret: app.body.client_secret,
    });
    expect(token.status).toBe(200);
    const bearer = as(((await token.json()) as { access_token: string }).access_token);
    const victim = await adminKey(['*']);

    expectRefusedFor(await bearer.delete(`/v1/api_keys/${victim.id}`), '*');
    await expectStillWorks(victim);
    const forever = await bearer.post('/v1/api_keys', { name: 'from a token', scopes: ['leads:read'] });
    expect(forever.status).toBe(422);
    expect(forever.body.errors[0]).toMatchObject({ path: 'expires_at', code: 'outlives_creator' });
    expect((await bearer.post('/v1/api_keys', { name: 'short', scopes: ['leads:read'], expires_at: inMinutes(30) })).status).toBe(201);
    expect((await bearer.post('/v1/oauth_apps', { name: 'app from a token', redirect_uris: [REDIRECT], scopes: ['leads:read'] })).status).toBe(403);
  });
});

describe('the dashboard session acts with its key’s scopes and expiry', () => {
  it('signed in with a keys:write key expiring in 2 minutes: cannot revoke a * key, nor mint a key without expiry', async () => {
    const narrow = await adminKey(['keys:write', 'leads:read'], inMinutes(2));
    const signIn = await rawRequest(
      sandbox.baseUrl,
      'POST',
      '/dashboard/session',
      { ...DASHBOARD, origin: sandbox.baseUrl },
      JSON.stringify({ api_key: narrow.secret }),
    );
    expect(signIn.status, signIn.body).toBe(200);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const headers = { ...DASHBOARD, cookie, origin: sandbox.baseUrl };
    const victim = await adminKey(['*']);

    const revoke = await rawRequest(sandbox.baseUrl, 'DELETE', `/v1/api_keys/${victim.id}`, headers);
    expect(revoke.status, revoke.body).toBe(403);
    expect(JSON.parse(revoke.body)).toMatchObject({ code: 'insufficient_scope' });
    await expectStillWorks(victim);

    const forever = await rawRequest(sandbox.baseUrl, 'POST', '/v1/api_keys', headers, JSON.stringify({ name: 'from the dashboard', scopes: ['leads:read'] }));
    expect(forever.status, forever.body).toBe(422);
    expect(JSON.parse(forever.body).errors[0]).toMatchObject({ path: 'expires_at', code: 'outlives_creator' });
    const star = await rawRequest(
      sandbox.baseUrl,
      'POST',
      '/v1/api_keys',
      headers,
      JSON.stringify({ name: 'star from the dashboard', scopes: ['*'], expires_at: inMinutes(1) }),
    );
    expect(star.status, star.body).toBe(403);
  });
});

describe('crm keys with a narrower key', () => {
  const crm = (secret: string, ...args: string[]) =>
    runCrm(['--base-url', sandbox.baseUrl, '--api-key', secret, 'keys', ...args], { CRM_API_KEY: '', CRM_BASE_URL: '' });

  it('revoke of a * key fails with exit 1 and the reason; create past the key’s expiry fails naming the latest allowed', async () => {
    const narrow = await adminKey(['keys:write', 'leads:read'], inMinutes(2));
    const victim = await adminKey(['*']);
    const revoke = await crm(narrow.secret, 'revoke', victim.id);
    expect(revoke.code).toBe(1);
    expect(revoke.stderr).toContain("lacks the scope '*'");
    await expectStillWorks(victim);

    const create = await crm(narrow.secret, 'create', '--name', 'forever', '--scopes', 'leads:read');
    expect(create.code).toBe(1);
    expect(create.stderr).toContain(narrow.expires_at!);
  });
});
