import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { DASHBOARD, rawRequest, signIn } from '../helpers/dashboard.js';
import { runCrm } from '../helpers/cli-process.js';
import { checkResponse } from '../helpers/openapi-check.js';

/** The dashboard's security rules (docs/dashboard.md#security-model), against a real sandbox process. */
let sandbox: RunningApp;
let api: ApiClient;
let cookie: string;
useApp({ seed: 1 }, (s, a) => ((sandbox = s), (api = a)));
beforeAll(async () => {
  cookie = await signIn(sandbox.baseUrl, sandbox.dashboardUrl);
});

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const host = () => new URL(sandbox.baseUrl).host;
const port = () => new URL(sandbox.baseUrl).port;

describe('pages and headers', () => {
  it('/ redirects to /dashboard/', async () => {
    const res = await rawRequest(sandbox.baseUrl, 'GET', '/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/dashboard/');
  });

  it('every dashboard response carries the CSP, nosniff and no-referrer; HTML and sessions are no-store', async () => {
    const cases: [string, string, Record<string, string>, string | undefined, number][] = [
      ['GET', '/dashboard/', {}, undefined, 200],
      ['GET', '/dashboard/leads?status=new', {}, undefined, 200],
      ['GET', '/dashboard/assets/app.js', {}, undefined, 200],
      ['GET', '/dashboard/assets/app.css', {}, undefined, 200],
      ['GET', '/dashboard/session', { ...DASHBOARD, cookie }, undefined, 200],
      ['GET', '/dashboard/session', DASHBOARD, undefined, 401],
      ['POST', '/dashboard/session', { ...DASHBOARD, origin: sandbox.baseUrl }, '{"login_token":"nope"}', 401],
      ['GET', '/dashboard/', { host: `evil.example:${port()}` }, undefined, 421],
    ];
    for (const [method, path, headers, body, status] of cases) {
      const res = await rawRequest(sandbox.baseUrl, method, path, headers, body);
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(res.headers['content-security-policy'], path).toBe(CSP);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
      if (!path.includes('/assets/')) {
        expect(res.headers['cache-control'], path).toBe('no-store');
      }
    }
  });

  it('serves the page and its two files from memory, with their types', async () => {
    const html = await rawRequest(sandbox.baseUrl, 'GET', '/dashboard/webhooks');
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('<script type="module" src="/dashboard/assets/app.js"></script>');
    expect(html.body).not.toMatch(/<script>|style=/); // nothing inline: the CSP would block it
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/dashboard/assets/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/dashboard/assets/app.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });
});

describe('Host check (DNS rebinding)', () => {
  it('answers 421 on /dashboard* and /_sandbox/* under a foreign Host, even with the admin key', async () => {
    for (const path of ['/dashboard/', '/dashboard/assets/app.js', '/_sandbox/mailbox']) {
      const res = await rawRequest(sandbox.baseUrl, 'GET', path, { host: `rebind.example:${port()}`, authorization: `Bearer ${sandbox.apiKey}` });
      expect(res.status, path).toBe(421);
      expect(JSON.parse(res.body).code).toBe('misdirected_request');
      // The sandbox controls document it (docs/api.md#the-openapi-document); the dashboard's pages are not API operations.
      if (path.startsWith('/_sandbox/')) await checkResponse(sandbox.baseUrl, 'GET', path, 421, String(res.headers['content-type']), JSON.parse(res.body));
    }
    // The right name on the wrong port is foreign too.
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/dashboard/', { host: '127.0.0.1:1' })).status).toBe(421);
  });

  it('accepts its own address, localhost, 127.0.0.1 and [::1] with its port', async () => {
    for (const name of [host(), `localhost:${port()}`, `127.0.0.1:${port()}`, `[::1]:${port()}`]) {
      expect((await rawRequest(sandbox.baseUrl, 'GET', '/dashboard/', { host: name })).status, name).toBe(200);
    }
    const mailbox = await rawRequest(sandbox.baseUrl, 'GET', '/_sandbox/mailbox', { host: `localhost:${port()}`, authorization: `Bearer ${sandbox.apiKey}` });
    expect(mailbox.status).toBe(200);
  });
});

describe('sign-in', () => {
  it('the printed link trades once for an HttpOnly, SameSite=Strict session cookie', async () => {
    const login = await api.post('/_sandbox/dashboard_logins');
    expect(login.status).toBe(201);
    expect(login.body.url).toBe(`${sandbox.baseUrl}/dashboard/#login=${login.body.token}`);
    const body = JSON.stringify({ login_token: login.body.token });
    const first = await rawRequest(sandbox.baseUrl, 'POST', '/dashboard/session', { ...DASHBOARD, origin: sandbox.baseUrl }, body);
    expect(first.status).toBe(200);
    expect(String(first.headers['set-cookie'])).toMatch(
      new RegExp(`^crm_session_${port()}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200$`),
    );
    const second = await rawRequest(sandbox.baseUrl, 'POST', '/dashboard/session', { ...DASHBOARD, origin: sandbox.baseUrl }, body);
    expect(second.status).toBe(401);
    expect(JSON.parse(second.body).detail).toMatch(/already used or has expired/);
  });

  it('signing in with a pasted key gives a session with only that key’s scopes', async () => {
    const reader = await api.post('/v1/api_keys', { name: 'reader', scopes: ['leads:read'] });
    const res = await rawRequest(
      sandbox.baseUrl,
      'POST',
      '/dashboard/session',
      { ...DASHBOARD, origin: sandbox.baseUrl },
      JSON.stringify({ api_key: reader.body.secret }),
    );
    expect(res.status).toBe(200);
    const readerCookie = String(res.headers['set-cookie']).split(';')[0]!;
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/v1/leads', { ...DASHBOARD, cookie: readerCookie })).status).toBe(200);
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/v1/deals', { ...DASHBOARD, cookie: readerCookie })).status).toBe(403);
  });

  it('refuses sign-in from another origin, or without the dashboard header', async () => {
    const token = (await api.post('/_sandbox/dashboard_logins')).body.token as string;
    const body = JSON.stringify({ login_token: token });
    const foreign = await rawRequest(sandbox.baseUrl, 'POST', '/dashboard/session', { ...DASHBOARD, origin: 'http://evil.example' }, body);
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).code).toBe('forbidden_origin');
    const crossSite = await rawRequest(sandbox.baseUrl, 'POST', '/dashboard/session', { ...DASHBOARD, 'sec-fetch-site': 'cross-site' }, body);
    expect(crossSite.status).toBe(403);
    const noHeader = await rawRequest(sandbox.baseUrl, 'POST', '/dashboard/session', { origin: sandbox.baseUrl }, body);
    expect(noHeader.status).toBe(403);
    // The token was not spent by the refused attempts.
    expect((await rawRequest(sandbox.baseUrl, 'POST', '/dashboard/session', { ...DASHBOARD, origin: sandbox.baseUrl }, body)).status).toBe(200);
  });

  it('bad sign-in bodies are 422', async () => {
    for (const body of ['{}', '{"login_token":"a","api_key":"b"}', '{"token":"a"}']) {
      const res = await rawRequest(sandbox.baseUrl, 'POST', '/dashboard/session', { ...DASHBOARD, origin: sandbox.baseUrl }, body);
      expect(res.status, body).toBe(422);
    }
  });

  it('the login endpoint needs the admin key', async () => {
    const reader = await api.post('/v1/api_keys', { name: 'r', scopes: ['leads:read'] });
    expect((await api.post('/_sandbox/dashboard_logins', undefined, { key: reader.body.secret })).status).toBe(403);
    expect((await api.post('/_sandbox/dashboard_logins', undefined, { key: null })).status).toBe(401);
  });

  it('sign-out ends the session', async () => {
    const own = await signIn(sandbox.baseUrl, (await api.post('/_sandbox/dashboard_logins')).body.url);
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/v1/leads', { ...DASHBOARD, cookie: own })).status).toBe(200);
    const out = await rawRequest(sandbox.baseUrl, 'DELETE', '/dashboard/session', { ...DASHBOARD, origin: sandbox.baseUrl, cookie: own });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/v1/leads', { ...DASHBOARD, cookie: own })).status).toBe(401);
  });
});

describe('the session cookie on /v1', () => {
  it('reads with the dashboard header; without it the cookie is ignored (401)', async () => {
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/v1/leads?limit=1', { ...DASHBOARD, cookie })).status).toBe(200);
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/v1/leads?limit=1', { cookie })).status).toBe(401);
  });

  it('a cross-site request with the cookie can neither read nor write', async () => {
    // What a page on another origin can make a browser send: no custom header without CORS (which the sandbox never grants)…
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/v1/leads', { cookie, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(401);
    const lead = JSON.stringify({ first_name: 'Mallory' });
    expect((await rawRequest(sandbox.baseUrl, 'POST', '/v1/leads', { cookie, origin: 'http://evil.example' }, lead)).status).toBe(401);
    // …and even with the header, a write from another origin is refused.
    expect((await rawRequest(sandbox.baseUrl, 'POST', '/v1/leads', { ...DASHBOARD, cookie, origin: 'http://evil.example' }, lead)).status).toBe(401);
    expect((await rawRequest(sandbox.baseUrl, 'POST', '/v1/leads', { ...DASHBOARD, cookie, 'sec-fetch-site': 'cross-site' }, lead)).status).toBe(401);
    expect((await rawRequest(sandbox.baseUrl, 'POST', '/v1/leads', { ...DASHBOARD, cookie }, lead)).status).toBe(401); // no Origin at all
    const leads = await api.get('/v1/leads?email=none&limit=1000');
    expect(JSON.stringify(leads.body)).not.toContain('Mallory');
    // No CORS grant: a browser would not even hand a cross-origin page the response.
    const preflight = await rawRequest(sandbox.baseUrl, 'OPTIONS', '/v1/leads', { origin: 'http://evil.example', 'access-control-request-method': 'POST' });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('writes from the same origin work', async () => {
    const lead = JSON.stringify({ first_name: 'Dash' });
    expect((await rawRequest(sandbox.baseUrl, 'POST', '/v1/leads', { ...DASHBOARD, cookie, origin: sandbox.baseUrl }, lead)).status).toBe(201);
    expect((await rawRequest(sandbox.baseUrl, 'POST', '/v1/leads', { ...DASHBOARD, cookie, 'sec-fetch-site': 'same-origin' }, lead)).status).toBe(201);
  });

  it('a session ends when its key is revoked', async () => {
    const key = await api.post('/v1/api_keys', { name: 'short-lived', scopes: ['*'] });
    const res = await rawRequest(
      sandbox.baseUrl,
      'POST',
      '/dashboard/session',
      { ...DASHBOARD, origin: sandbox.baseUrl },
      JSON.stringify({ api_key: key.body.secret }),
    );
    const own = String(res.headers['set-cookie']).split(';')[0]!;
    await api.delete(`/v1/api_keys/${key.body.id}`);
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/v1/leads', { ...DASHBOARD, cookie: own })).status).toBe(401);
  });
});

describe('crm dashboard', () => {
  it('prints a fresh single-use link', async () => {
    const run = await runCrm(['dashboard', '--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey]);
    expect(run.code).toBe(0);
    const match = /^Dashboard {2}(http:\/\/\S+\/dashboard\/#login=\S+)$/m.exec(run.stdout);
    expect(match).not.toBeNull();
    expect(await signIn(sandbox.baseUrl, match![1]!)).toMatch(new RegExp(`^crm_session_${port()}=`));
    const json = await runCrm(['dashboard', '--json', '--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey]);
    expect(JSON.parse(json.stdout).dashboard_url).toMatch(/#login=/);
    const noKey = await runCrm(['dashboard', '--base-url', sandbox.baseUrl], { CRM_API_KEY: '' });
    expect(noKey.code).toBe(2);
  });
});
