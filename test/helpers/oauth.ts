import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';
import { apiClient, startSandboxProcess, type ApiClient, type RunningSandbox } from './sandbox.js';

/**
 * OAuth 2.0 test harness: a real sandbox process, its metadata discovered by an independent
 * client library (oauth4webapi), and one registered app. The library does every step it has a
 * function for; plain fetch acts where a browser would (the consent page).
 */
export const REDIRECT = 'http://127.0.0.1:9/callback';
export const OTHER_REDIRECT = 'http://localhost:9/other';
// The sandbox speaks http on the loopback address; the library refuses that unless told.
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

export interface RegisteredApp {
  id: string;
  client_id: string;
  client_secret: string;
  scopes: string[];
  redirect_uris: string[];
}

export const get = (url: URL | string) => fetch(url, { redirect: 'manual' });
export const postForm = (url: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });

/** The sealed request in a consent page's form. */
export const sealedRequest = (html: string) => /name="request" value="([^"]+)"/.exec(html)?.[1];

/** The RFC 6749 error a token endpoint call was refused with. */
export async function oauthError(call: Promise<unknown>): Promise<{ error: string; status: number }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the call should have been refused').toBeInstanceOf(oauth.ResponseBodyError);
  const { error: code, status } = error as oauth.ResponseBodyError;
  return { error: code, status };
}

export async function oauthHarness() {
  const sandbox: RunningSandbox = await startSandboxProcess(['--no-seed']);
  const api: ApiClient = apiClient(sandbox);
  const issuer = new URL(sandbox.baseUrl);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));

  async function registerApp(scopes: string[], redirectUris = [REDIRECT]): Promise<RegisteredApp> {
    const res = await api.post('/v1/oauth_apps', { name: 'Test integration', redirect_uris: redirectUris, scopes });
    expect(res.status, res.text).toBe(201);
    return res.body as RegisteredApp;
  }
  const app = await registerApp(['leads:read'], [REDIRECT, OTHER_REDIRECT]);
  const client: oauth.Client = { client_id: app.client_id };

  /** The authorization URL an app would send the user to, with fresh PKCE and state; '' drops a parameter. */
  async function authorizationUrl(params: Record<string, string> = {}, clientId = app.client_id) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    const all: Record<string, string> = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'leads:read',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...params,
    };
    for (const [k, v] of Object.entries(all)) if (v !== '') url.searchParams.set(k, v);
    return { url, verifier, state };
  }

  /** What a browser does: load the consent page, press a button, and be sent on (the Location). */
  async function consent(url: URL, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
    const page = await get(url);
    const html = await page.text();
    expect(page.status, html).toBe(200);
    const sealed = sealedRequest(html);
    expect(sealed).toBeDefined();
    const answer = await postForm(`${sandbox.baseUrl}/oauth/authorize`, { request: sealed!, decision });
    expect(answer.status).toBe(302);
    return new URL(answer.headers.get('location')!);
  }

  /** Authorizes and exchanges the code: one grant's tokens. */
  async function grantTokens(scope = 'leads:read') {
    const { url, verifier, state } = await authorizationUrl({ scope });
    const params = oauth.validateAuthResponse(as, client, await consent(url), state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic(app.client_secret), params, REDIRECT, verifier, insecure);
    return oauth.processAuthorizationCodeResponse(as, client, response);
  }

  async function refresh(refreshToken: string) {
    const response = await oauth.refreshTokenGrantRequest(as, client, oauth.ClientSecretPost(app.client_secret), refreshToken, insecure);
    return oauth.processRefreshTokenResponse(as, client, response);
  }

  /** An API client that sends this bearer token (responses still checked against the OpenAPI document). */
  const asBearer = (token: string) => apiClient({ baseUrl: sandbox.baseUrl, apiKey: token });

  async function expectRejectedToken(token: string) {
    const res = await asBearer(token).get('/v1/leads');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="crm", error="invalid_token"');
  }

  return { sandbox, api, as, app, client, registerApp, authorizationUrl, consent, grantTokens, refresh, asBearer, expectRejectedToken };
}

export type OAuthHarness = Awaited<ReturnType<typeof oauthHarness>>;
