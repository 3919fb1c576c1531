import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, insecure, oauthError, oauthHarness, OTHER_REDIRECT, postForm, REDIRECT, type OAuthHarness } from '../helpers/oauth.js';

/**
 * OAuth 2.0 end to end (docs/reference/access.md#oauth-20): app registration, RFC 8414 discovery, the authorization code
 * flow with PKCE, refresh token rotation with reuse detection, and RFC 7009 revocation, against
 * a real sandbox process and an independent client library (oauth4webapi). Refusals are in
 * oauth-refusals.test.ts.
 */
let t: OAuthHarness;
beforeAll(async () => {
  t = await oauthHarness();
});
afterAll(async () => {
  await t?.sandbox.stop();
});

describe('OAuth apps', () => {
  it('shows the client_secret once, at registration; the list never does', async () => {
    expect(t.app.id).toMatch(/^app_/);
    expect(t.app.client_secret).toMatch(/^crm_cs_[0-9A-Za-z]{43}$/);
    expect(t.app).toMatchObject({ scopes: ['leads:read'], redirect_uris: [REDIRECT, OTHER_REDIRECT] });
    const list = await t.api.get('/v1/oauth_apps?limit=1000');
    expect(list.status).toBe(200);
    expect(list.body.data.find((a: { id: string }) => a.id === t.app.id)).toMatchObject({ client_id: t.app.client_id });
    expect(list.text).not.toContain(t.app.client_secret);
  });

  it('refuses redirect URIs that are not https (except on localhost), relative, or carry a fragment', async () => {
    for (const uri of ['http://example.com/cb', '/callback', 'https://example.com/cb#frag', 'javascript:alert(1)']) {
      const res = await t.api.post('/v1/oauth_apps', { name: 'Bad', redirect_uris: [uri], scopes: ['leads:read'] });
      expect(res.status, uri).toBe(422);
      expect(res.body.errors[0].path).toBe('redirect_uris.0');
    }
    expect((await t.api.post('/v1/oauth_apps', { name: 'Ok', redirect_uris: ['https://example.com/cb'], scopes: ['leads:read'] })).status).toBe(201);
  });

  it('needs keys:write to register and keys:read to list', async () => {
    const key = await t.api.post('/v1/api_keys', { name: 'reader', scopes: ['keys:read'] });
    const reader = t.asBearer(key.body.secret);
    expect((await reader.get('/v1/oauth_apps')).status).toBe(200);
    const res = await reader.post('/v1/oauth_apps', { name: 'x', redirect_uris: [REDIRECT], scopes: ['leads:read'] });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
  });

  it('an app may ask only for scopes the registering key holds (no escalation through consent)', async () => {
    const key = await t.api.post('/v1/api_keys', { name: 'registrar', scopes: ['keys:write', 'leads:read'] });
    const registrar = t.asBearer(key.body.secret);
    const within = await registrar.post('/v1/oauth_apps', { name: 'ok', redirect_uris: [REDIRECT], scopes: ['leads:read'] });
    expect(within.status).toBe(201);
    const beyond = await registrar.post('/v1/oauth_apps', { name: 'no', redirect_uris: [REDIRECT], scopes: ['leads:read', 'deals:write'] });
    expect(beyond.status).toBe(403);
    expect(beyond.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="deals:write"');
  });

  it('names the key that registered it; the app outlives that key (delete it too if the key leaked)', async () => {
    const key = (await t.api.post('/v1/api_keys', { name: 'leaky', scopes: ['keys:write', 'leads:read'] })).body;
    const made = (await t.asBearer(key.secret).post('/v1/oauth_apps', { name: 'Left behind', redirect_uris: [REDIRECT], scopes: ['leads:read'] })).body;
    expect(made.registered_by).toBe(key.id);
    const listed = (await t.api.get('/v1/oauth_apps?limit=100')).body.data.find((a: { id: string }) => a.id === made.id);
    expect(listed.registered_by).toBe(key.id);

    expect((await t.api.delete(`/v1/api_keys/${key.id}`)).status).toBe(200);
    const credentials = { grant_type: 'client_credentials', client_id: made.client_id, client_secret: made.client_secret };
    expect((await postForm(t.as.token_endpoint!, credentials)).status).toBe(200); // the documented decision
    expect((await t.api.delete(`/v1/oauth_apps/${made.id}`)).status).toBe(200);
    expect((await postForm(t.as.token_endpoint!, credentials)).status).toBe(401);
  });
});

describe('deleting an OAuth app', () => {
  it('takes its tokens along: the next API call is 401, the client can no longer get tokens, the list drops it', async () => {
    const made = await t.api.post('/v1/oauth_apps', { name: 'Doomed', redirect_uris: [REDIRECT], scopes: ['leads:read'] });
    expect(made.status).toBe(201);
    const credentials = { grant_type: 'client_credentials', client_id: made.body.client_id, client_secret: made.body.client_secret };
    const token = await postForm(t.as.token_endpoint!, credentials);
    expect(token.status).toBe(200);
    const bearer = t.asBearer(((await token.json()) as { access_token: string }).access_token);
    expect((await bearer.get('/v1/leads?limit=1')).status).toBe(200);

    const deleted = await t.api.delete(`/v1/oauth_apps/${made.body.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: made.body.id, deleted: true });
    expect((await bearer.get('/v1/leads?limit=1')).status).toBe(401);
    const again = await postForm(t.as.token_endpoint!, credentials);
    expect(again.status).toBe(401);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_client');
    const list = await t.api.get('/v1/oauth_apps?limit=1000');
    expect(list.body.data.map((a: { id: string }) => a.id)).not.toContain(made.body.id);
  });

  it('an unknown app is 404, and deleting needs keys:write', async () => {
    const missing = await t.api.delete('/v1/oauth_apps/app_nope');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    const key = await t.api.post('/v1/api_keys', { name: 'reader only', scopes: ['keys:read'] });
    const refused = await t.asBearer(key.body.secret).delete(`/v1/oauth_apps/${t.app.id}`);
    expect(refused.status).toBe(403);
    expect((await t.api.get('/v1/oauth_apps?limit=1000')).body.data.map((a: { id: string }) => a.id)).toContain(t.app.id);
  });
});

describe('discovery (RFC 8414)', () => {
  it('publishes the endpoints and capabilities, documented in the OpenAPI document', async () => {
    const res = await t.api.get('/.well-known/oauth-authorization-server', { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: t.sandbox.baseUrl,
      authorization_endpoint: `${t.sandbox.baseUrl}/oauth/authorize`,
      token_endpoint: `${t.sandbox.baseUrl}/oauth/token`,
      revocation_endpoint: `${t.sandbox.baseUrl}/oauth/revoke`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      registration_endpoint: `${t.sandbox.baseUrl}/oauth/register`,
      // 'none' is for the public clients dynamic registration makes (test/e2e/mcp-oauth.test.ts).
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    });
    expect(res.body.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']));
    expect(res.body.scopes_supported).toContain('leads:read');
    expect(t.as.issuer).toBe(t.sandbox.baseUrl);
  });
});

describe('authorization code flow with PKCE', () => {
  it('approve, exchange, call the API within the granted scope, refresh', async () => {
    const { url, verifier, state } = await t.authorizationUrl();
    const page = await get(url);
    const html = await page.text();
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(html).toContain('Test integration');
    expect(html).toContain('leads:read');

    const callback = await t.consent(url);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    expect(callback.searchParams.get('state')).toBe(state);
    const params = oauth.validateAuthResponse(t.as, t.client, callback, state);

    const response = await oauth.authorizationCodeGrantRequest(
      t.as,
      t.client,
      oauth.ClientSecretBasic(t.app.client_secret),
      params,
      REDIRECT,
      verifier,
      insecure,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const tokens = await oauth.processAuthorizationCodeResponse(t.as, t.client, response);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'leads:read' });
    expect(tokens.access_token).toMatch(/^crm_at_/);
    expect(tokens.refresh_token).toMatch(/^crm_rt_/);

    const user = t.asBearer(tokens.access_token);
    expect((await user.get('/v1/leads')).status).toBe(200);
    const write = await user.post('/v1/leads', { email: 'a@example.com' });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('insufficient_scope');
    expect(write.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="leads:write"');

    const refreshed = await t.refresh(tokens.refresh_token!);
    expect(refreshed.refresh_token).toMatch(/^crm_rt_/);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect((await t.asBearer(refreshed.access_token).get('/v1/leads')).status).toBe(200);
  });

  it('a used refresh token presented again revokes the whole family', async () => {
    const first = await t.grantTokens();
    const second = await t.refresh(first.refresh_token!);
    expect(await oauthError(t.refresh(first.refresh_token!))).toEqual({ error: 'invalid_grant', status: 400 });
    // The thief and the client cannot be told apart: the newer tokens die too.
    expect(await oauthError(t.refresh(second.refresh_token!))).toEqual({ error: 'invalid_grant', status: 400 });
    await t.expectRejectedToken(second.access_token);
  });

  it('refresh may narrow the scope, never widen it', async () => {
    const wide = await t.registerApp(['leads:write']);
    const wideClient = { client_id: wide.client_id };
    const { url, verifier, state } = await t.authorizationUrl({ scope: 'leads:write' }, wide.client_id);
    const params = oauth.validateAuthResponse(t.as, wideClient, await t.consent(url), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      t.as,
      wideClient,
      await oauth.authorizationCodeGrantRequest(t.as, wideClient, oauth.ClientSecretPost(wide.client_secret), params, REDIRECT, verifier, insecure),
    );
    const auth = oauth.ClientSecretPost(wide.client_secret);
    const narrowed = await oauth.processRefreshTokenResponse(
      t.as,
      wideClient,
      await oauth.refreshTokenGrantRequest(t.as, wideClient, auth, tokens.refresh_token!, { additionalParameters: { scope: 'leads:read' }, ...insecure }),
    );
    expect(narrowed.scope).toBe('leads:read');
    expect((await t.asBearer(narrowed.access_token).post('/v1/leads', { email: 'b@example.com' })).status).toBe(403);
    const widen = oauth.refreshTokenGrantRequest(t.as, wideClient, auth, narrowed.refresh_token!, {
      additionalParameters: { scope: 'leads:write' },
      ...insecure,
    });
    expect(await oauthError(widen.then((r) => oauth.processRefreshTokenResponse(t.as, wideClient, r)))).toEqual({ error: 'invalid_scope', status: 400 });
  });

  it('Deny sends the user back with access_denied and the state', async () => {
    const { url, state } = await t.authorizationUrl();
    const callback = await t.consent(url, 'deny');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.has('code')).toBe(false);
    expect(() => oauth.validateAuthResponse(t.as, t.client, callback, state)).toThrow(oauth.AuthorizationResponseError);
  });
});

describe('revocation (RFC 7009)', () => {
  it('revoking a refresh token ends its access token and the grant', async () => {
    const tokens = await t.grantTokens();
    const response = await oauth.revocationRequest(t.as, t.client, oauth.ClientSecretBasic(t.app.client_secret), tokens.refresh_token!, insecure);
    await oauth.processRevocationResponse(response);
    await t.expectRejectedToken(tokens.access_token);
    expect(await oauthError(t.refresh(tokens.refresh_token!))).toEqual({ error: 'invalid_grant', status: 400 });
  });

  it('revoking an access token ends only it; unknown tokens are "revoked" too (200)', async () => {
    const tokens = await t.grantTokens();
    const auth = oauth.ClientSecretPost(t.app.client_secret);
    await oauth.processRevocationResponse(await oauth.revocationRequest(t.as, t.client, auth, tokens.access_token, insecure));
    await t.expectRejectedToken(tokens.access_token);
    expect((await t.refresh(tokens.refresh_token!)).access_token).toMatch(/^crm_at_/);
    expect((await oauth.revocationRequest(t.as, t.client, auth, 'crm_at_unknown', insecure)).status).toBe(200);
  });
});
