import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, insecure, oauthError, oauthHarness, OTHER_REDIRECT, postForm, REDIRECT, sealedRequest, type OAuthHarness } from '../helpers/oauth.js';

/**
 * What OAuth 2.0 refuses (docs/reference/access.md#oauth-20; RFC 6749, 7636): bad redirect URIs never redirect, bad
 * authorization requests go back to the app, and the token endpoint answers RFC 6749 errors.
 * Code expiry (60 s) is tested with a fake clock in test/unit/oauth-expiry.test.ts.
 */
let t: OAuthHarness;
beforeAll(async () => {
  t = await oauthHarness();
});
afterAll(async () => {
  await t?.sandbox.stop();
});

describe('refusals', () => {
  it('an unregistered redirect_uri or unknown client gets an error page, never a redirect', async () => {
    for (const params of [{ redirect_uri: 'https://attacker.example/cb' }, { redirect_uri: `${REDIRECT}/extra` }, { redirect_uri: '' }]) {
      const { url } = await t.authorizationUrl(params);
      const res = await get(url);
      expect(res.status, url.href).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('redirect_uri');
    }
    const unknown = await get((await t.authorizationUrl({}, 'crm_client_unknown')).url);
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('location')).toBeNull();
  });

  it('a request without PKCE, with plain PKCE or with too wide a scope is sent back with the error and state', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge: '', code_challenge_method: '' }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ scope: 'leads:read deals:read' }, 'invalid_scope'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
    ];
    for (const [params, error] of cases) {
      const { url, state } = await t.authorizationUrl(params);
      const res = await get(url);
      expect(res.status, JSON.stringify(params)).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('state')).toBe(state);
    }
  });

  it('a consent form that was tampered with is refused on a page', async () => {
    const { url } = await t.authorizationUrl();
    const sealed = sealedRequest(await (await get(url)).text())!;
    const [payload, mac] = sealed.split('.');
    const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    forged.redirect_uri = OTHER_REDIRECT;
    const res = await postForm(`${t.sandbox.baseUrl}/oauth/authorize`, {
      request: `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`,
      decision: 'approve',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    // The same form, untouched, is accepted: the forgery is what was refused.
    expect((await postForm(`${t.sandbox.baseUrl}/oauth/authorize`, { request: sealed, decision: 'approve' })).status).toBe(302);
  });

  it('a consent form answers once: a second Approve (or a Deny after it) mints nothing', async () => {
    const { url } = await t.authorizationUrl();
    const sealed = sealedRequest(await (await get(url)).text())!;
    const first = await postForm(`${t.sandbox.baseUrl}/oauth/authorize`, { request: sealed, decision: 'approve' });
    expect(first.status).toBe(302);
    expect(new URL(first.headers.get('location')!).searchParams.get('code')).toEqual(expect.any(String));
    for (const decision of ['approve', 'deny']) {
      const again = await postForm(`${t.sandbox.baseUrl}/oauth/authorize`, { request: sealed, decision });
      expect(again.status, decision).toBe(400);
      expect(again.headers.get('location')).toBeNull();
      expect(await again.text()).toContain('already answered');
    }
    // A fresh page for the same request is answerable: the refusal is of the used form only.
    const fresh = sealedRequest(await (await get(url)).text())!;
    expect((await postForm(`${t.sandbox.baseUrl}/oauth/authorize`, { request: fresh, decision: 'deny' })).status).toBe(302);
  });

  async function approvedCode(redirectUri = REDIRECT) {
    const { url, verifier, state } = await t.authorizationUrl({ redirect_uri: redirectUri });
    return { params: oauth.validateAuthResponse(t.as, t.client, await t.consent(url), state), verifier };
  }
  const exchange = (params: URLSearchParams, verifier: string, redirectUri = REDIRECT, c = t.client, secret = t.app.client_secret) =>
    oauth
      .authorizationCodeGrantRequest(t.as, c, oauth.ClientSecretBasic(secret), params, redirectUri, verifier, insecure)
      .then((r) => oauth.processAuthorizationCodeResponse(t.as, c, r));

  it('a wrong code_verifier is invalid_grant', async () => {
    const { params } = await approvedCode();
    expect(await oauthError(exchange(params, oauth.generateRandomCodeVerifier()))).toEqual({ error: 'invalid_grant', status: 400 });
  });

  it('a code is single use: the second exchange is invalid_grant and revokes what the first one got', async () => {
    const { params, verifier } = await approvedCode();
    const tokens = await exchange(params, verifier);
    expect((await t.asBearer(tokens.access_token).get('/v1/leads')).status).toBe(200);
    expect(await oauthError(exchange(params, verifier))).toEqual({ error: 'invalid_grant', status: 400 });
    await t.expectRejectedToken(tokens.access_token);
  });

  it('the redirect_uri must be the one the code was issued for, and the code only for its client', async () => {
    const { params, verifier } = await approvedCode(OTHER_REDIRECT);
    expect(await oauthError(exchange(params, verifier, REDIRECT))).toEqual({ error: 'invalid_grant', status: 400 });
    const other = await t.registerApp(['leads:read'], [OTHER_REDIRECT]);
    const otherClient = { client_id: other.client_id };
    expect(await oauthError(exchange(params, verifier, OTHER_REDIRECT, otherClient, other.client_secret))).toEqual({ error: 'invalid_grant', status: 400 });
    expect((await exchange(params, verifier, OTHER_REDIRECT)).access_token).toMatch(/^crm_at_/);
  });

  it('client_credentials gives the app its scopes without a refresh token; a wrong secret is 401 invalid_client', async () => {
    const ok = await oauth.processClientCredentialsResponse(
      t.as,
      t.client,
      await oauth.clientCredentialsGrantRequest(t.as, t.client, oauth.ClientSecretBasic(t.app.client_secret), {}, insecure),
    );
    expect(ok.scope).toBe('leads:read');
    expect(ok.refresh_token).toBeUndefined();
    expect((await t.asBearer(ok.access_token).get('/v1/leads')).status).toBe(200);

    const basic = await oauth.clientCredentialsGrantRequest(t.as, t.client, oauth.ClientSecretBasic('crm_cs_wrong'), {}, insecure);
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toBe('Basic realm="crm"');
    expect(basic.headers.get('cache-control')).toBe('no-store');
    expect(await basic.json()).toMatchObject({ error: 'invalid_client' });
    const post = await postForm(t.as.token_endpoint!, { grant_type: 'client_credentials', client_id: t.app.client_id, client_secret: 'crm_cs_wrong' });
    expect(post.status).toBe(401);
    expect(await post.json()).toMatchObject({ error: 'invalid_client', error_description: expect.any(String) });
  });

  it('the token endpoint wants a form, once per parameter, and a known grant type', async () => {
    const auth = { authorization: `Basic ${Buffer.from(`${t.app.client_id}:${t.app.client_secret}`).toString('base64')}` };
    const json = await fetch(t.as.token_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: '{"grant_type":"client_credentials"}',
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'invalid_request' });
    const twice = await fetch(t.as.token_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth },
      body: 'grant_type=client_credentials&grant_type=client_credentials',
    });
    expect(await twice.json()).toMatchObject({ error: 'invalid_request' });
    const implicit = await postForm(t.as.token_endpoint!, { grant_type: 'password' }, auth);
    expect(implicit.status).toBe(400);
    expect(await implicit.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('/v1 still refuses form bodies with 415', async () => {
    const res = await t.api.request('POST', '/v1/leads', {
      rawBody: 'email=a%40example.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });
});
