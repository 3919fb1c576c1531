import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SCOPES } from '../../schemas/api-key.js';
import { listEnvelope, listQueryFields } from '../../schemas/common.js';
import { AuthorizationServerMetadata, OAuthApp, OAuthAppCreate, OAuthAppWithSecret } from '../../schemas/oauth.js';
import { lazySchema } from '../../schemas/lazy.js';
import type { Ctx } from '../../services/context.js';
import {
  authenticateClient,
  createOAuthApp,
  publicClient,
  deleteOAuthApp,
  listOAuthApps,
  OAuthError,
  requireAuthorityOverApp,
  type AppRecord,
} from '../../services/oauth-apps.js';
import {
  checkAuthorizeClient,
  checkAuthorizeRequest,
  oneParam,
  openSealedRequest,
  redirectWith,
  requireApprover,
  sealRequest,
} from '../../services/oauth-authorize.js';
import { sessionPrincipal } from '../../services/dashboard-sessions.js';
import { sessionCookie } from '../dashboard/cookie.js';
import { isSameOrigin } from '../dashboard/origin.js';
import { requireOwnResource } from '../oauth-resource.js';
import { clientCredentialsGrant, exchangeCode, issueCode, refreshGrant, revokeToken } from '../../services/oauth-tokens.js';
import { consentPage, errorPage } from '../oauth-pages.js';
import { enterAccountOfClient } from '../../accounts/credentials.js';
import type { AccountRegistry } from '../../accounts/registry.js';
import { requireNonExpiring, requireScopesToGrant } from '../../services/key-authority.js';
import { respond } from '../plugins/idempotency.js';
import { toApiError } from '../plugins/errors.js';
import { BEARER, Deleted, errorResponses } from '../schema-docs.js';
import { IdParams } from '../../schemas/common.js';

const AppListQuery = lazySchema(() => z.strictObject({ limit: listQueryFields().limit, cursor: listQueryFields().cursor }));

/** OAuth 2.0 for third-party apps (docs/reference/access.md#oauth-20): app registration under /v1, the protocol under /oauth. */
export function oauthRoutes(fastify: FastifyInstance, ctx: Ctx, accounts: AccountRegistry): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['OAuth'], security: BEARER };
  app.post('/v1/oauth_apps', {
    config: {
      scope: 'keys:write',
      // The sandbox's consent page has no login, so whoever registers an app can approve it: it may
      // ask only for what the registering key holds (as with POST /v1/api_keys), or that is escalation.
      // Its client credentials mint tokens for ever, so an expiring key registering one would outlive itself.
      authorize: (req) => {
        requireScopesToGrant(req.principal, 'OAuth app', (req.body as OAuthAppCreate).scopes);
        requireNonExpiring(req.principal);
      },
    },
    schema: {
      ...base,
      summary: 'Register an OAuth app (the client_secret is shown once)',
      description:
        'The app may ask only for scopes the calling key holds (403 `insufficient_scope` names the one it lacks). An app never expires, ' +
        'so a key or token that expires cannot register one (403 `insufficient_scope`).',
      body: OAuthAppCreate,
      response: { 201: OAuthAppWithSecret, ...errorResponses('validation_failed') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 201, () => createOAuthApp(ctx, req.body, req.principal ?? null)),
  });
  app.get('/v1/oauth_apps', {
    config: { scope: 'keys:read' },
    schema: {
      ...base,
      summary: 'List OAuth apps (no secrets)',
      querystring: AppListQuery,
      response: { 200: listEnvelope(OAuthApp), ...errorResponses('invalid_cursor') },
    },
    handler: async (req) => listOAuthApps(ctx, req.query),
  });
  app.delete('/v1/oauth_apps/:id', {
    // Checked here too (deleteOAuthApp checks it for every caller), so that a replay of another key's deletion is refused alike.
    config: { scope: 'keys:write', authorize: (req) => requireAuthorityOverApp(ctx, req.principal, (req.params as { id: string }).id) },
    schema: {
      ...base,
      summary: 'Delete an OAuth app; its access and refresh tokens stop working at once',
      description: 'Only a key that holds every scope the app holds may delete it (403 `insufficient_scope` names the one it lacks).',
      params: IdParams,
      response: { 200: Deleted, ...errorResponses('not_found') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => deleteOAuthApp(ctx, req.params.id, req.principal)),
  });
  app.get('/.well-known/oauth-authorization-server', {
    schema: { tags: ['OAuth'], security: [], summary: 'Authorization server metadata (RFC 8414)', response: { 200: AuthorizationServerMetadata } },
    handler: async () => metadata(ctx),
  });

  // The protocol endpoints speak forms and RFC 6749 errors: their parser and error handler stay
  // inside this plugin, so /v1 keeps answering 415 to anything but JSON.
  fastify.register(async (oauth) => {
    oauth.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    oauth.setErrorHandler(async (error: FastifyError, request, reply) => {
      const failure = error instanceof OAuthError ? error : fromOtherError(error);
      if (failure.status >= 500) request.log.error({ err: error }, 'oauth request failed');
      reply.header('cache-control', 'no-store').headers(failure.headers);
      if (request.routeOptions.url === '/oauth/authorize') return html(reply, failure.status, errorPage(failure.error, failure.message));
      // RFC 6749 §5.2 / RFC 9110: a 401 names the scheme to authenticate with.
      if (failure.status === 401) reply.header('www-authenticate', 'Basic realm="crm"');
      return reply.code(failure.status).type('application/json; charset=utf-8').send({ error: failure.error, error_description: failure.message });
    });

    // The client names its account: each account has its own apps (docs/accounts.md).
    oauth.addHook('preHandler', async (request) => {
      const clientId = clientIdOf(request);
      if (clientId) enterAccountOfClient(accounts, clientId);
    });

    oauth.get('/oauth/authorize', { schema: { hide: true } }, async (request, reply) => {
      const params = request.query as Record<string, unknown>;
      const { app: client, redirectUri } = checkAuthorizeClient(ctx, params);
      let checked;
      try {
        checked = checkAuthorizeRequest(client, redirectUri, params);
        requireOwnResource(ctx, request, oneParam(params, 'resource'));
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error;
        const state = typeof params.state === 'string' ? params.state : undefined;
        return redirect(reply, redirectWith(ctx, redirectUri, { error: error.error, error_description: error.message, state }));
      }
      return html(
        reply,
        200,
        consentPage({ appName: client.name, selfRegistered: client.self_registered, redirectUri, scopes: checked.scopes, sealed: sealRequest(ctx, checked) }),
      );
    });

    oauth.post('/oauth/authorize', { schema: { hide: true } }, async (request, reply) => {
      const params = formParams(request.body);
      const decision = oneParam(params, 'decision');
      // Checked before the form is opened, which uses it up: a bad decision leaves it answerable.
      if (decision !== 'approve' && decision !== 'deny') throw new OAuthError('invalid_request', "decision must be 'approve' or 'deny'.");
      // Only a signed-in dashboard user approves a self-registered app; the session counts on a form
      // posted from the sandbox's own page (the consent page), never from another site's.
      const approve = (app: AppRecord, sealed: Parameters<typeof requireApprover>[1]) => {
        const session = isSameOrigin(ctx, request) ? sessionCookie(ctx, request) : undefined;
        requireApprover(app, sealed, session ? sessionPrincipal(ctx, session) : undefined);
      };
      const { app: client, request: checked } = openSealedRequest(ctx, oneParam(params, 'request'), decision === 'approve' ? approve : undefined);
      if (decision === 'approve') {
        const code = issueCode(ctx, client, checked);
        return redirect(reply, redirectWith(ctx, checked.redirect_uri, { code, state: checked.state }));
      }
      return redirect(
        reply,
        redirectWith(ctx, checked.redirect_uri, { error: 'access_denied', error_description: 'The user denied the request.', state: checked.state }),
      );
    });

    oauth.post('/oauth/token', { schema: { hide: true } }, async (request, reply) => {
      const params = formParams(request.body);
      const client = authenticate(ctx, request, params);
      const grantType = oneParam(params, 'grant_type');
      const p = {
        code: oneParam(params, 'code'),
        redirect_uri: oneParam(params, 'redirect_uri'),
        code_verifier: oneParam(params, 'code_verifier'),
        refresh_token: oneParam(params, 'refresh_token'),
        scope: oneParam(params, 'scope'),
      };
      requireOwnResource(ctx, request, oneParam(params, 'resource'));
      let tokens;
      if (grantType === 'authorization_code') tokens = exchangeCode(ctx, client, p);
      else if (grantType === 'refresh_token') tokens = refreshGrant(ctx, client, p);
      else if (grantType === 'client_credentials') {
        // A public client cannot authenticate: its client_id alone must never be a token.
        if (client.self_registered) throw new OAuthError('unauthorized_client', 'A self-registered (public) client may not use client_credentials.');
        tokens = clientCredentialsGrant(ctx, client, p);
      } else if (!grantType) throw new OAuthError('invalid_request', 'The grant_type parameter is missing.');
      else throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code, refresh_token or client_credentials.');
      // Tokens must never sit in a cache (RFC 6749 §5.1).
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').type('application/json; charset=utf-8').send(tokens);
    });

    oauth.post('/oauth/revoke', { schema: { hide: true } }, async (request, reply) => {
      const params = formParams(request.body);
      const client = authenticate(ctx, request, params);
      const token = oneParam(params, 'token');
      if (!token) throw new OAuthError('invalid_request', 'The token parameter is missing.');
      revokeToken(ctx, client, token);
      return reply.code(200).header('cache-control', 'no-store').send();
    });
  });
}

function metadata(ctx: Ctx): z.infer<typeof AuthorizationServerMetadata> {
  const issuer = ctx.baseUrl();
  // 'none': the public clients dynamic registration makes (MCP clients); apps made with a key have a secret.
  const authMethods = ['client_secret_basic', 'client_secret_post', 'none'];
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    registration_endpoint: `${issuer}/oauth/register`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
  };
}

/** Failures that are not OAuth's own (body too large, bad encoding, bugs) in RFC 6749 terms. */
function fromOtherError(error: Error): OAuthError {
  const apiError = toApiError(error);
  if (apiError.status >= 500) return new OAuthError('server_error', 'Something went wrong on our side. Retry later.', apiError.status);
  return new OAuthError('invalid_request', apiError.message, apiError.status);
}

/**
 * The client a protocol request is for, without judging it (the endpoints do that): the query's
 * client_id, the form's, HTTP Basic's user, or the one inside a sealed consent form.
 */
function clientIdOf(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown>;
  if (typeof query.client_id === 'string') return query.client_id;
  if (typeof request.body !== 'string') return undefined;
  const form = new URLSearchParams(request.body);
  const named = form.get('client_id');
  if (named) return named;
  const basic = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(request.headers.authorization ?? '');
  if (basic) {
    const user = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0] ?? '';
    try {
      return decodeURIComponent(user.replace(/\+/g, ' '));
    } catch {
      return undefined;
    }
  }
  const sealed = form.get('request')?.split('.')[0];
  try {
    const inside = sealed ? (JSON.parse(Buffer.from(sealed, 'base64url').toString('utf8')) as { client_id?: unknown }) : undefined;
    return typeof inside?.client_id === 'string' ? inside.client_id : undefined;
  } catch {
    return undefined;
  }
}

/** A form body as parameters; each may appear once (RFC 6749 §3.1), and empty means absent. */
function formParams(body: unknown): Record<string, string> {
  if (typeof body !== 'string') throw new OAuthError('invalid_request', 'Send the body as application/x-www-form-urlencoded.');
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(body)) {
    if (Object.hasOwn(out, name)) throw new OAuthError('invalid_request', `The parameter '${name}' must be sent once.`);
    if (value !== '') out[name] = value;
  }
  return out;
}

/** Client authentication by HTTP Basic (form-encoded id and secret, RFC 6749 §2.3.1) or in the body; one method only. */
function authenticate(ctx: Ctx, request: FastifyRequest, params: Record<string, string>): AppRecord {
  const header = request.headers.authorization;
  if (header === undefined) {
    const clientId = oneParam(params, 'client_id');
    const secret = oneParam(params, 'client_secret');
    if (clientId && !secret) return publicClient(ctx, clientId);
    if (!clientId || !secret) throw new OAuthError('invalid_client', 'Authenticate the client with HTTP Basic, or client_id and client_secret in the body.');
    return authenticateClient(ctx, clientId, secret);
  }
  if (params.client_secret !== undefined)
    throw new OAuthError('invalid_request', 'Use one client authentication method: HTTP Basic or client_secret in the body, not both.');
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'The Authorization header must be HTTP Basic with client_id:client_secret.');
  const formDecode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw new OAuthError('invalid_client', 'The Basic credentials are not form-encoded correctly.');
    }
  };
  const clientId = formDecode(decoded.slice(0, colon));
  if (params.client_id !== undefined && params.client_id !== clientId)
    throw new OAuthError('invalid_request', 'client_id in the body differs from the one in the Authorization header.');
  return authenticateClient(ctx, clientId, formDecode(decoded.slice(colon + 1)));
}

function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(302).header('location', location).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send();
}

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  // The consent page must not be framed: a hidden frame could get a user to click Approve.
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(body);
}
