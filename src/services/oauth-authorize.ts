import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { metaValue } from '../store/db.js';
import { dropExpiredConsents, markConsentAnswered } from '../store/oauth-apps.js';
import { wallNow } from './clock.js';
import type { Ctx } from './context.js';
import { missingScope } from '../domain/scopes.js';
import type { Principal } from './api-keys.js';
import { findAppByClientId, narrowScopes, OAuthError, type AppRecord } from './oauth-apps.js';

/**
 * The authorization endpoint's checks (RFC 6749 §4.1.1, RFC 7636, docs/reference/access.md#oauth-20), in two stages:
 * until the client and its redirect URI are known good, an error is shown to the person and
 * never sent anywhere (an open redirector otherwise); after that, errors go back to the app.
 */
export interface AuthorizationRequest {
  client_id: string;
  redirect_uri: string;
  scopes: string[];
  state: string | undefined;
  code_challenge: string;
}

/** One value of a parameter; a repeated one is invalid_request (RFC 6749 §3.1). */
export function oneParam(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new OAuthError('invalid_request', `The parameter '${name}' must be sent once.`);
  return value;
}

/** Stage 1: the app and an exactly registered redirect URI, or an error for the page. */
export function checkAuthorizeClient(ctx: Ctx, params: Record<string, unknown>): { app: AppRecord; redirectUri: string } {
  const clientId = oneParam(params, 'client_id');
  if (!clientId) throw new OAuthError('invalid_request', 'The client_id parameter is missing.');
  const app = findAppByClientId(ctx, clientId);
  if (!app) throw new OAuthError('invalid_client', 'No app is registered with this client_id.', 400);
  const redirectUri = oneParam(params, 'redirect_uri');
  // Required even with one registered URI: exact matching leaves nothing to guess (OAuth 2.1).
  if (!redirectUri) throw new OAuthError('invalid_request', 'The redirect_uri parameter is missing.');
  if (!app.redirect_uris.includes(redirectUri)) {
    throw new OAuthError('invalid_request', 'The redirect_uri is not one this app registered (they must match exactly).');
  }
  return { app, redirectUri };
}

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/; // BASE64URL of a SHA-256 digest, no padding

/** Stage 2: the rest of the request; errors here are redirected to the app with its state. */
export function checkAuthorizeRequest(app: AppRecord, redirectUri: string, params: Record<string, unknown>): AuthorizationRequest {
  const responseType = oneParam(params, 'response_type');
  if (responseType !== 'code') throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported.');
  const method = oneParam(params, 'code_challenge_method');
  const challenge = oneParam(params, 'code_challenge');
  if (!challenge) throw new OAuthError('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256.');
  if (method !== 'S256') throw new OAuthError('invalid_request', 'Only code_challenge_method=S256 is supported (plain is not).');
  if (!CHALLENGE.test(challenge)) throw new OAuthError('invalid_request', 'code_challenge must be BASE64URL(SHA-256(code_verifier)): 43 characters.');
  const state = oneParam(params, 'state');
  if (state !== undefined && state.length > 1000) throw new OAuthError('invalid_request', 'state is longer than 1000 characters.');
  const scopes = narrowScopes(app.scopes, oneParam(params, 'scope'));
  return { client_id: app.client_id, redirect_uri: redirectUri, scopes, state, code_challenge: challenge };
}

/** How long the consent page stays answerable. */
const CONSENT_TTL_MS = 10 * 60 * 1000;

const sign = (ctx: Ctx, payload: string): Buffer => createHmac('sha256', metaValue(ctx.db, 'oauth_consent_secret')).update(payload).digest();

/**
 * The consent form carries the checked request, signed, instead of a server-side session: the
 * page's Approve cannot be replayed with other parameters (another redirect_uri, more scopes).
 * Its nonce makes it answerable once (answerOnce).
 */
export function sealRequest(ctx: Ctx, request: AuthorizationRequest): string {
  const nonce = randomBytes(16).toString('base64url');
  const payload = Buffer.from(JSON.stringify({ ...request, nonce, exp: wallNow(ctx) + CONSENT_TTL_MS })).toString('base64url');
  return `${payload}.${sign(ctx, payload).toString('base64url')}`;
}

/**
 * The request sealed in the consent form, checked again against the app as it is now. `check`
 * may refuse it (throw) before the form is used up, so that the person can fix what was wrong
 * (sign in to the dashboard) and answer the same page.
 */
export function openSealedRequest(
  ctx: Ctx,
  sealed: string | undefined,
  check: (app: AppRecord, request: AuthorizationRequest) => void = () => {},
): { app: AppRecord; request: AuthorizationRequest } {
  const [payload = '', mac = ''] = (sealed ?? '').split('.');
  const expected = sign(ctx, payload);
  const given = Buffer.from(mac, 'base64url');
  if (!payload || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new OAuthError('invalid_request', 'The consent form was altered or is not from this server. Start the authorization again.');
  }
  const { exp, nonce, ...request } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as AuthorizationRequest & { exp: number; nonce: string };
  if (exp <= wallNow(ctx)) throw new OAuthError('invalid_request', 'The consent page expired. Start the authorization again.');
  const { app } = checkAuthorizeClient(ctx, { client_id: request.client_id, redirect_uri: request.redirect_uri });
  check(app, request);
  answerOnce(ctx, nonce, exp);
  return { app, request };
}

/**
 * Records a consent form as answered, or refuses it if it was: without this, one approved page
 * (left in a browser's history, or posted again by a script) mints a new code each time.
 */
function answerOnce(ctx: Ctx, nonce: string, expiresAt: number): void {
  dropExpiredConsents(ctx.db, wallNow(ctx));
  if (!markConsentAnswered(ctx.db, nonce, expiresAt))
    throw new OAuthError('invalid_request', 'This consent page was already answered. Start the authorization again.');
}

/** The app's redirect URI with the response parameters added (RFC 9207 `iss` included). */
export function redirectWith(ctx: Ctx, redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries({ ...params, iss: ctx.baseUrl() })) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/**
 * Who may approve a self-registered app (docs/security.md#mcp-clients-that-register-themselves):
 * anyone may register one, so the consent page's usual rule (whoever has the page approves) would
 * hand a token to anyone who reaches the port. It takes a dashboard session of the app's account
 * (`approver`, from the session cookie), whose key holds every scope asked for and does not expire
 * (the grant's refresh token lives 30 days). Apps made with a key keep the page's usual rule.
 */
export function requireApprover(app: AppRecord, request: AuthorizationRequest, approver: Principal | undefined): void {
  if (!app.self_registered) return;
  if (!approver) {
    throw new OAuthError(
      'access_denied',
      'This app registered itself, so only someone signed in to the sandbox dashboard may approve it. Sign in to the dashboard in this browser (the link crm sandbox start printed), then press Approve again.',
      401,
    );
  }
  const missing = missingScope(approver.scopes, request.scopes);
  if (missing) {
    throw new OAuthError(
      'access_denied',
      `The dashboard is signed in with a key that lacks the scope '${missing}', which this app asks for. Sign in with a key that holds it, or have the app ask for less.`,
      403,
    );
  }
  if (approver.expiresAt !== null) {
    throw new OAuthError(
      'access_denied',
      'The dashboard is signed in with a key that expires, and this grant would outlive it (its refresh token lasts 30 days). Sign in with a key that does not expire.',
      403,
    );
  }
}
