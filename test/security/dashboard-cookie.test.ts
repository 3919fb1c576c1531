import { describe, expect, it } from 'vitest';
import { DASHBOARD, rawRequest, signIn } from '../helpers/dashboard.js';
import { apiClient } from '../helpers/sandbox.js';
import { useSandboxes, type RunningApp } from '../helpers/app.js';

/**
 * Cookies ignore ports (RFC 6265 §8.5): a browser keeps one jar for 127.0.0.1 and sends all of it
 * to every port. With one cookie name, signing in to a second sandbox overwrote the first one's
 * session, and signing out of either signed out of both. The session cookie's name carries the
 * port (docs/security.md#keys-tokens-and-sessions) — two real sandboxes on two ports, one browser's jar between them.
 */
let a: RunningApp;
let b: RunningApp;
useSandboxes(2, {}, (apps) => ([a, b] = apps as [RunningApp, RunningApp]));

const port = (s: RunningApp) => new URL(s.baseUrl).port;

/** What a browser does with cookies for one host: keyed by name (path and domain are the same here), whatever the port. */
function browserJar() {
  const cookies = new Map<string, string>();
  return {
    /** Keeps a Set-Cookie header's cookie; Max-Age=0 deletes it. */
    store(setCookie: string) {
      const [pair, ...attributes] = setCookie.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      if (attributes.some((attr) => attr.trim() === 'Max-Age=0')) cookies.delete(name);
      else cookies.set(name, pair!.slice(eq + 1).trim());
    },
    /** The Cookie header it sends to any port of the host. */
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  };
}

const sessionStatus = async (sandbox: RunningApp, cookie: string) =>
  (await rawRequest(sandbox.baseUrl, 'GET', '/dashboard/session', { ...DASHBOARD, cookie })).status;

describe('two sandboxes in one browser', () => {
  it('signing in to both keeps both sessions, and signing out of one leaves the other', async () => {
    const jar = browserJar();
    jar.store(await signIn(a.baseUrl, a.dashboardUrl));
    jar.store(await signIn(b.baseUrl, b.dashboardUrl));

    expect(await sessionStatus(a, jar.header())).toBe(200);
    expect(await sessionStatus(b, jar.header())).toBe(200);
    expect((await rawRequest(a.baseUrl, 'GET', '/v1/leads', { ...DASHBOARD, cookie: jar.header() })).status).toBe(200);
    expect((await rawRequest(b.baseUrl, 'GET', '/v1/leads', { ...DASHBOARD, cookie: jar.header() })).status).toBe(200);

    const out = await rawRequest(a.baseUrl, 'DELETE', '/dashboard/session', { ...DASHBOARD, origin: a.baseUrl, cookie: jar.header() });
    expect(out.status).toBe(204);
    jar.store(String(out.headers['set-cookie']));
    expect(await sessionStatus(a, jar.header())).toBe(401);
    expect(await sessionStatus(b, jar.header())).toBe(200);
  });

  it('a sandbox reads only the cookie named for its own port', async () => {
    const cookie = await signIn(b.baseUrl, (await apiClient(b).post('/_sandbox/dashboard_logins')).body.url);
    expect(cookie.startsWith(`crm_session_${port(b)}=`)).toBe(true);
    const session = cookie.slice(cookie.indexOf('=') + 1);
    expect(await sessionStatus(b, cookie)).toBe(200);
    // B's own valid session, under port A's name or the old portless one: not B's cookie, ignored.
    expect(await sessionStatus(b, `crm_session_${port(a)}=${session}`)).toBe(401);
    expect(await sessionStatus(b, `crm_session=${session}`)).toBe(401);
  });
});
