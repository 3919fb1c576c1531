import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { apiClient, useSandbox, type ApiClient, type RunningSandbox } from '../helpers/sandbox.js';

/**
 * The dashboard's rules over HTTP, as an attacker would probe them (API.md §11): headers on every
 * dashboard response, 421 for a foreign Host (DNS rebinding), the session cookie counted only with
 * X-CRM-Dashboard and, for writes, the sandbox's own Origin; single-use sign-in links.
 */
let sandbox: RunningSandbox;
let api: ApiClient;
useSandbox(['--no-seed'], (s, a) => ((sandbox = s), (api = a)));

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** A request with the Host header as given (fetch sets its own). */
function withHost(method: string, url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function signIn(): Promise<string> {
  const login = await api.post('/_sandbox/dashboard_logins');
  expect(login.status).toBe(201);
  const response = await fetch(`${sandbox.baseUrl}/dashboard/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: login.body.token }) });
  expect(response.status).toBe(200);
  const cookie = response.headers.get('set-cookie')!;
  expect(cookie).toMatch(/^crm_session=ds_[\w-]+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200$/);
  return cookie.split(';')[0]!;
}

describe('the dashboard over HTTP', () => {
  it('sends the §11 headers on every dashboard response, and no-store on pages and sign-in', async () => {
    for (const path of ['/dashboard/', '/dashboard/leads?status=new', '/dashboard/deep/link', '/dashboard/assets/app.js', '/dashboard/assets/app.css', '/dashboard/session']) {
      const response = await fetch(`${sandbox.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy'), path).toBe(CSP);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
      if (!path.includes('/assets/')) expect(response.headers.get('cache-control'), path).toBe('no-store');
    }
    const root = await fetch(`${sandbox.baseUrl}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/dashboard/']);
  });

  it('answers 421 to /dashboard and /_sandbox under a foreign Host (DNS rebinding), before authentication', async () => {
    const port = new URL(sandbox.baseUrl).port;
    for (const path of ['/dashboard/', '/_sandbox/reset', '/dashboard/session']) {
      const foreign = await withHost(path === '/_sandbox/reset' ? 'POST' : 'GET', `${sandbox.baseUrl}${path}`, `evil.example:${port}`);
      expect(foreign.status, path).toBe(421);
      expect(JSON.parse(foreign.body).code).toBe('misdirected_request');
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      expect((await withHost('GET', `${sandbox.baseUrl}/dashboard/`, host)).status, host).toBe(200);
    }
    expect((await withHost('GET', `${sandbox.baseUrl}/dashboard/`, 'localhost:1')).status).toBe(421); // another port
  });

  it('counts the session cookie only with X-CRM-Dashboard: 1, and for writes only from its own origin', async () => {
    const cookie = await signIn();
    const read = (headers: Record<string, string>) => api.get('/v1/leads?limit=1', { key: null, headers: { cookie, ...headers } });
    expect((await read({})).status).toBe(401);
    expect((await read({ 'x-crm-dashboard': '1' })).status).toBe(200);
    const write = (headers: Record<string, string>) => api.post('/v1/leads', { first_name: 'cookie' }, { key: null, headers: { cookie, 'x-crm-dashboard': '1', ...headers } });
    expect((await write({})).status).toBe(401);
    expect((await write({ origin: 'http://evil.example' })).status).toBe(401);
    expect((await write({ origin: `http://evil.example:${new URL(sandbox.baseUrl).port}` })).status).toBe(401);
    expect((await write({ 'sec-fetch-site': 'cross-site' })).status).toBe(401);
    expect((await write({ origin: sandbox.baseUrl })).status).toBe(201);
    expect((await write({ 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    expect((await api.get('/v1/leads?limit=10')).body.data).toHaveLength(2);
  });

  it('a sign-in link works once; a signed-out or forged session is nothing', async () => {
    const login = await api.post('/_sandbox/dashboard_logins');
    const trade = () => fetch(`${sandbox.baseUrl}/dashboard/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: login.body.token }) });
    expect((await trade()).status).toBe(200);
    const again = await trade();
    expect(again.status).toBe(401);
    expect(((await again.json()) as { detail: string }).detail).toMatch(/crm dashboard/);
    const cookie = await signIn();
    await fetch(`${sandbox.baseUrl}/dashboard/session`, { method: 'DELETE', headers: { cookie } });
    expect((await api.get('/v1/leads', { key: null, headers: { cookie, 'x-crm-dashboard': '1' } })).status).toBe(401);
    expect((await api.get('/v1/leads', { key: null, headers: { cookie: 'crm_session=ds_forged', 'x-crm-dashboard': '1' } })).status).toBe(401);
  });

  it('mints sign-in links for the admin key only; a session from a pasted key ends when the key is revoked', async () => {
    const reader = (await api.post('/v1/api_keys', { name: 'reader', scopes: ['leads:read'] })).body as { id: string; secret: string };
    expect((await api.post('/_sandbox/dashboard_logins', undefined, { key: reader.secret })).status).toBe(403);
    const signIn = await fetch(`${sandbox.baseUrl}/dashboard/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: reader.secret }) });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const me = (await (await fetch(`${sandbox.baseUrl}/dashboard/session`, { headers: { cookie } })).json()) as { scopes: string[] };
    expect(me.scopes).toEqual(['leads:read']);
    expect((await api.post('/v1/leads', { first_name: 'x' }, { key: null, headers: { cookie, 'x-crm-dashboard': '1', origin: sandbox.baseUrl } })).status).toBe(403);
    expect((await api.delete(`/v1/api_keys/${reader.id}`)).status).toBe(200);
    expect((await api.get('/v1/leads', { key: null, headers: { cookie, 'x-crm-dashboard': '1' } })).status).toBe(401);
    const refused = await fetch(`${sandbox.baseUrl}/dashboard/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: reader.secret }) });
    expect(refused.status).toBe(401);
  });
});
