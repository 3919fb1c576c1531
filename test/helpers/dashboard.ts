import { request as httpRequest } from 'node:http';

/** A raw HTTP request (node:http, so Host, Origin and Cookie are sent exactly as given). */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const DASHBOARD = { 'x-crm-dashboard': '1' };

/** Trades the token of a printed sign-in link for the session cookie, as the page does; returns "crm_session_<port>=…". */
export async function signIn(baseUrl: string, dashboardUrl: string): Promise<string> {
  const token = new URL(dashboardUrl).hash.replace('#login=', '');
  const res = await rawRequest(baseUrl, 'POST', '/dashboard/session', { ...DASHBOARD, origin: baseUrl }, JSON.stringify({ login_token: token }));
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.body}`);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  return cookie;
}

/** Signs in by pasting an API key, as the sign-in form does; returns the session cookie ("name=value"). */
export async function signInWithKey(baseUrl: string, apiKey: string): Promise<string> {
  const res = await rawRequest(baseUrl, 'POST', '/dashboard/session', { ...DASHBOARD, origin: baseUrl }, JSON.stringify({ api_key: apiKey }));
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.body}`);
  return String(res.headers['set-cookie']).split(';')[0]!;
}
