import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useApp, type RunningApp } from '../helpers/app.js';
import { rawRequest, signInWithKey } from '../helpers/dashboard.js';
import { answerConsent, MCP_REDIRECT } from '../helpers/mcp-oauth.js';
import type { ApiClient } from '../helpers/sandbox.js';

/**
 * The attacks on MCP's OAuth sign-in (docs/security.md#mcp-clients-that-register-themselves), against a real sandbox:
 * anyone who reaches the port may register an OAuth client (RFC 7591), so registration must not
 * accept a redirect a code could leak through, must not be a way to fill the database, and an app
 * registered that way must get no token unless a signed-in dashboard user approves it. Tokens are
 * for this server only (RFC 8707), and a broken body on /mcp is a JSON-RPC error while /v1 keeps
 * its problem+json.
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({}, (s, a) => ((sandbox = s), (api = a)));

const register = (body: unknown, headers: Record<string, string> = {}) =>
  rawRequest(sandbox.baseUrl, 'POST', '/oauth/register', headers, typeof body === 'string' ? body : JSON.stringify(body));

const selfRegisteredCount = async () =>
  (await api.get('/v1/oauth_apps?limit=1000')).body.data.filter((a: { self_registered: boolean }) => a.self_registered).length;

async function registerClient(scope?: string): Promise<string> {
  const res = await register({ client_name: 'Mallory MCP', redirect_uris: [MCP_REDIRECT], ...(scope ? { scope } : {}) });
  expect(res.status, res.body).toBe(201);
  return JSON.parse(res.body).client_id;
}

function authorizationUrl(clientId: string, params: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${sandbox.baseUrl}/oauth/authorize`);
  const all = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: MCP_REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 's1',
    ...params,
  };
  for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
  return { url, verifier };
}

const tokenRequest = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  rawRequest(
    sandbox.baseUrl,
    'POST',
    '/oauth/token',
    { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    new URLSearchParams(form).toString(),
  );

describe('dynamic client registration', () => {
  it('refuses redirect URIs a code could leak through, and registers nothing', async () => {
    const before = await selfRegisteredCount();
    for (const uri of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'http://evil.example/cb', // plain http off the loopback address
      'https://evil.example/cb#fragment',
      'http://user:pass@127.0.0.1:9/cb',
      '/relative/cb',
      'vbscript:msgbox(1)',
      `https://example.com/${'a'.repeat(2100)}`,
    ]) {
      const res = await register({ client_name: 'x', redirect_uris: ['https://fine.example/cb', uri] });
      expect(res.status, uri).toBe(400);
      expect(JSON.parse(res.body), uri).toMatchObject({ error: 'invalid_redirect_uri' });
    }
    const tooMany = await register({ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://fine.example/${i}`) });
    expect(JSON.parse(tooMany.body).error).toBe('invalid_redirect_uri');
    expect(JSON.parse((await register({ client_name: 'x' })).body).error).toBe('invalid_redirect_uri');
    expect(await selfRegisteredCount()).toBe(before);
  });

  it('refuses metadata it will not honour: other grants, scopes beyond the list, control characters, non-JSON, big bodies', async () => {
    const ok = { redirect_uris: [MCP_REDIRECT] };
    for (const body of [
      { ...ok, grant_types: ['client_credentials'] },
      { ...ok, grant_types: ['implicit'] },
      { ...ok, response_types: ['token'] },
      { ...ok, scope: '*' },
      { ...ok, scope: 'leads:read root' },
      { ...ok, client_name: 'Claude\u001b]52;c;AAAA\u0007' },
      '{"redirect_uris": [',
    ]) {
      const res = await register(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.parse(res.body).error, JSON.stringify(body)).toBe('invalid_client_metadata');
    }
    const big = await register({ ...ok, client_name: 'x', padding: 'a'.repeat(40 * 1024) });
    expect(big.status).toBe(413);
    // Unknown metadata is ignored (RFC 7591 §2), and a request for a secret gets a public client instead.
    const made = await register({ ...ok, client_name: 'Asks for a secret', token_endpoint_auth_method: 'client_secret_basic', logo_uri: 'https://x/y.png' });
    expect(made.status).toBe(201);
    expect(JSON.parse(made.body)).toMatchObject({ token_endpoint_auth_method: 'none' });
    expect(JSON.parse(made.body)).not.toHaveProperty('client_secret');
  });

  it('refuses web pages: another Origin (403), a rebound Host (421)', async () => {
    const port = new URL(sandbox.baseUrl).port;
    expect((await register({ redirect_uris: [MCP_REDIRECT] }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await register({ redirect_uris: [MCP_REDIRECT] }, { host: `evil.example:${port}` })).status).toBe(421);
  });
});

describe('a self-registered app gets a token only through a signed-in dashboard user', () => {
  it('without a dashboard session Approve mints no code; the same page works once the user signs in', async () => {
    const clientId = await registerClient();
    const { url } = authorizationUrl(clientId);
    const anonymous = await answerConsent(sandbox.baseUrl, url);
    expect(anonymous.page).toContain('This app registered itself');
    expect(anonymous.answer.status).toBe(401);
    expect(anonymous.answer.headers['content-type']).toMatch(/^text\/html/);
    expect(anonymous.answer.body).toContain('Sign in to the dashboard');
    expect(anonymous.location).toBeUndefined();

    // The refusal did not use the form up: after signing in, the same form is approved.
    const cookie = await signInWithKey(sandbox.baseUrl, sandbox.apiKey);
    const again = await rawRequest(
      sandbox.baseUrl,
      'POST',
      '/oauth/authorize',
      { 'content-type': 'application/x-www-form-urlencoded', origin: sandbox.baseUrl, cookie },
      new URLSearchParams({ request: anonymous.sealed, decision: 'approve' }).toString(),
    );
    expect(again.status).toBe(302);
    expect(new URL(String(again.headers.location)).searchParams.get('code')).toMatch(/^crm_ac_/);
  });

  it("a session posted from another site's page does not count", async () => {
    const { url } = authorizationUrl(await registerClient());
    const page = await rawRequest(sandbox.baseUrl, 'GET', url.pathname + url.search);
    const sealed = /name="request" value="([^"]+)"/.exec(page.body)![1]!;
    const cookie = await signInWithKey(sandbox.baseUrl, sandbox.apiKey);
    const crossSite = await rawRequest(
      sandbox.baseUrl,
      'POST',
      '/oauth/authorize',
      { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', cookie },
      new URLSearchParams({ request: sealed, decision: 'approve' }).toString(),
    );
    expect(crossSite.status).toBe(401);
    expect(crossSite.headers.location).toBeUndefined();
  });

  it('the signed-in key must hold every scope asked for, and must not expire', async () => {
    const clientId = await registerClient();
    const reader = (await api.post('/v1/api_keys', { name: 'reader', scopes: ['leads:read'] })).body.secret;
    const wide = await answerConsent(
      sandbox.baseUrl,
      authorizationUrl(clientId, { scope: 'leads:read leads:write' }).url,
      await signInWithKey(sandbox.baseUrl, reader),
    );
    expect(wide.answer.status).toBe(403);
    expect(wide.answer.body).toContain('leads:write');
    expect(wide.location).toBeUndefined();

    const expiring = (await api.post('/v1/api_keys', { name: 'short', scopes: ['*'], expires_at: new Date(Date.now() + 3600_000).toISOString() })).body.secret;
    const refused = await answerConsent(
      sandbox.baseUrl,
      authorizationUrl(clientId, { scope: 'leads:read' }).url,
      await signInWithKey(sandbox.baseUrl, expiring),
    );
    expect(refused.answer.status).toBe(403);
    expect(refused.location).toBeUndefined();
  });

  it('a public client cannot use client_credentials; a client_id alone does not authenticate an app made with a key', async () => {
    const clientId = await registerClient();
    const credentials = await tokenRequest({ grant_type: 'client_credentials', client_id: clientId });
    expect(credentials.status).toBe(400);
    expect(JSON.parse(credentials.body).error).toBe('unauthorized_client');
    const guessedSecret = await tokenRequest({ grant_type: 'client_credentials', client_id: clientId, client_secret: 'crm_cs_guess' });
    expect(guessedSecret.status).toBe(401);

    const keyMade = (await api.post('/v1/oauth_apps', { name: 'Team app', redirect_uris: [MCP_REDIRECT], scopes: ['leads:read'] })).body;
    const noSecret = await tokenRequest({ grant_type: 'client_credentials', client_id: keyMade.client_id });
    expect(noSecret.status).toBe(401);
    expect(JSON.parse(noSecret.body).error).toBe('invalid_client');
  });
});

describe('resource indicators (RFC 8707)', () => {
  it('an authorization request for another server is sent back with invalid_target, and no consent page', async () => {
    const clientId = await registerClient();
    for (const resource of ['https://evil.example/mcp', 'http://127.0.0.1:1/mcp', `${sandbox.baseUrl}/mcp#x`, `${sandbox.baseUrl}/v1/leads`, 'not a url']) {
      const { url } = authorizationUrl(clientId, { resource });
      const res = await rawRequest(sandbox.baseUrl, 'GET', url.pathname + url.search);
      expect(res.status, resource).toBe(302);
      const back = new URL(String(res.headers.location));
      expect(back.searchParams.get('error'), resource).toBe('invalid_target');
    }
    const own = await rawRequest(
      sandbox.baseUrl,
      'GET',
      (({ url }) => url.pathname + url.search)(authorizationUrl(clientId, { resource: `${sandbox.baseUrl}/mcp` })),
    );
    expect(own.status).toBe(200);
  });

  it('a token request for another server is refused before the code is spent', async () => {
    const clientId = await registerClient();
    const { url, verifier } = authorizationUrl(clientId, { resource: `${sandbox.baseUrl}/mcp` });
    const consent = await answerConsent(sandbox.baseUrl, url, await signInWithKey(sandbox.baseUrl, sandbox.apiKey));
    const code = consent.location!.searchParams.get('code')!;
    const exchange = { grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: MCP_REDIRECT, code_verifier: verifier };
    const foreign = await tokenRequest({ ...exchange, resource: 'https://evil.example/mcp' });
    expect(foreign.status).toBe(400);
    expect(JSON.parse(foreign.body).error).toBe('invalid_target');
    const ok = await tokenRequest({ ...exchange, resource: `${sandbox.baseUrl}/mcp` });
    expect(ok.status, ok.body).toBe(200);
    expect(JSON.parse(ok.body).access_token).toMatch(/^crm_at_/);
  });
});

describe('broken bodies on /mcp', () => {
  const post = (path: string, body: string) =>
    rawRequest(sandbox.baseUrl, 'POST', path, { authorization: `Bearer ${sandbox.apiKey}`, accept: 'application/json, text/event-stream' }, body);

  it('malformed JSON on /mcp (any spelling of it) is a JSON-RPC parse error; on /v1/leads still problem+json', async () => {
    for (const path of ['/mcp', '/%6Dcp']) {
      for (const body of ['{"jsonrpc":"2.0",', `${'['.repeat(100)}${']'.repeat(100)}`]) {
        const res = await post(path, body);
        expect(res.status, `${path} ${body.slice(0, 20)}`).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        const answer = JSON.parse(res.body);
        expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
        expect(answer.error.message).toMatch(/^Parse error: /);
      }
    }
    const rest = await post('/v1/leads', '{"first_name":');
    expect(rest.status).toBe(400);
    expect(rest.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(rest.body)).toMatchObject({ code: 'malformed_json' });
  });

  it('valid JSON that is not JSON-RPC gets what the MCP SDK answers', async () => {
    for (const body of ['{"hello":1}', '[1,2]', '"text"']) {
      const res = await post('/mcp', body);
      expect(res.status, body).toBe(400);
      expect(JSON.parse(res.body), body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' } });
    }
  });
});

// Last: it fills the account's quota of self-registered apps.
describe('a registration flood', () => {
  it('is capped per hour (429 with Retry-After) and in all (429 until apps are deleted)', async () => {
    const accountId = (await api.get('/_sandbox/accounts')).body.data[0].id; // the only account: the default one
    const body = { client_name: 'Flood', redirect_uris: [MCP_REDIRECT] };
    let made = await selfRegisteredCount();
    const fillHour = async () => {
      for (;;) {
        const res = await register(body);
        if (res.status !== 201) return res;
        made++;
      }
    };
    const hourly = await fillHour();
    expect(hourly.status).toBe(429);
    expect(Number(hourly.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(hourly.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(JSON.parse(hourly.body).error_description).toMatch(/20 .*per hour/);
    expect(await selfRegisteredCount()).toBe(made);

    let last = hourly;
    for (let hour = 0; hour < 6 && !/holds 100/.test(last.body); hour++) {
      expect((await api.post(`/_sandbox/accounts/${accountId}/clock`, { advance: '61m' })).status).toBe(200);
      last = await fillHour();
    }
    expect(last.status).toBe(429);
    expect(JSON.parse(last.body).error_description).toMatch(/holds 100 self-registered/);
    expect(await selfRegisteredCount()).toBe(100);
    // Apps made with a key are not held back by the flood.
    expect((await api.post('/v1/oauth_apps', { name: 'Team app', redirect_uris: [MCP_REDIRECT], scopes: ['leads:read'] })).status).toBe(201);
  });
});
