import { describe, expect, it } from 'vitest';
import { postForm, REDIRECT } from '../helpers/oauth.js';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

/**
 * docs/security.md: the request log stored query strings verbatim, so a key put in the URL
 * (`?api_key=crm_test_…`) was readable by anyone with `logs:read`, and in the dashboard. Secret
 * parameters are now redacted as body fields are (docs/security.md#what-is-stored-how); the harmless ones stay as sent.
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({}, (s, a) => ((sandbox = s), (api = a)));

/** Sends a GET with the given query (authenticated by header, as every client does) and returns its log entry's query. */
async function loggedQuery(path: string, query: string): Promise<string> {
  const res = await fetch(`${sandbox.baseUrl}${path}?${query}`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
  const requestId = res.headers.get('x-request-id');
  const logged = await api.get(`/v1/request_logs/${requestId}`);
  expect(logged.status).toBe(200);
  return logged.body.query;
}

describe('the request log redacts secrets in query strings', () => {
  it('GET /v1/leads?api_key=<the admin key>&q=…: the key is not in the log, q is', async () => {
    const query = await loggedQuery('/v1/leads', `api_key=${sandbox.apiKey}&q=acme`);
    expect(query).toBe('api_key=[redacted]&q=acme');
    const everything = await api.get('/v1/request_logs?limit=1000');
    expect(everything.text).not.toContain(sandbox.apiKey);
  });

  it('redacts OAuth tokens and client secrets by name, and our secrets by shape under any name, however encoded', async () => {
    const app = await api.post('/v1/oauth_apps', { name: 'in a url', redirect_uris: [REDIRECT], scopes: ['leads:read'] });
    const grant = await postForm(`${sandbox.baseUrl}/oauth/token`, {
      grant_type: 'client_credentials',
      client_id: app.body.client_id,
      client_secret: app.body.client_secret,
    });
    const { access_token } = (await grant.json()) as { access_token: string };
    const secrets = [sandbox.apiKey, access_token, app.body.client_secret as string];

    const byName = await loggedQuery('/v1/leads', `access_token=${access_token}&client_secret=${app.body.client_secret}&token=abc&limit=5`);
    expect(byName).toBe('access_token=[redacted]&client_secret=[redacted]&token=[redacted]&limit=5');

    const byShape = await loggedQuery(
      '/v1/leads',
      `note=${encodeURIComponent(`see ${access_token}`)}&key=${sandbox.apiKey.replace('_', '%5F')}&email=a%40b.test`,
    );
    expect(byShape).toBe('note=[redacted]&key=[redacted]&email=a%40b.test');

    const everything = await api.get('/v1/request_logs?limit=1000');
    for (const secret of secrets) expect(everything.text).not.toContain(secret);
  });
});
