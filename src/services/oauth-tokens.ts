import { createHash, randomUUID } from 'node:crypto';
import { credentialIssued } from './credential-issues.js';
import {
  dropCodesAndTokensExpiredBefore,
  findCode,
  findToken,
  insertCode,
  insertToken,
  markCodeUsed,
  markTokenUsed,
  revokeTokenFamily,
  revokeTokenRow,
  tokenOwner,
  tokenRights,
} from '../store/oauth-grants.js';
import { hashSecret, type Principal } from './api-keys.js';
import { randomToken } from '../domain/tokens.js';
import { wallNow } from './clock.js';
import type { Ctx } from './context.js';
import { inTransaction } from './transactions.js';
import { narrowScopes, OAuthError, type AppRecord } from './oauth-apps.js';
import type { AuthorizationRequest } from './oauth-authorize.js';

/**
 * Codes and tokens (docs/reference/access.md#oauth-20; RFC 6749, 7636, 7009). All are random and stored as SHA-256
 * hashes. Each grant is a token family: refresh tokens rotate, and a used one presented again
 * means a copy leaked, so the whole family is revoked (RFC 6819 §5.2.2.3, OAuth 2.1 §4.3.1).
 */
const CODE_TTL_S = 60;
const ACCESS_TTL_S = 60 * 60;
const REFRESH_TTL_S = 30 * 24 * 60 * 60;

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const expired = (ctx: Ctx, expiresAt: string) => Date.parse(expiresAt) <= wallNow(ctx);

export function issueCode(ctx: Ctx, app: AppRecord, request: AuthorizationRequest): string {
  purgeExpired(ctx);
  const code = randomToken('crm_ac_');
  const now = wallNow(ctx);
  insertCode(ctx.db, {
    hash: hashSecret(code),
    appId: app.id,
    redirectUri: request.redirect_uri,
    scopes: JSON.stringify(request.scopes),
    codeChallenge: request.code_challenge,
    createdAt: iso(now),
    expiresAt: iso(now + CODE_TTL_S * 1000),
  });
  return code;
}

function issueTokens(ctx: Ctx, appId: string, familyId: string, scopes: string[], withRefresh: boolean): TokenResponse {
  const now = wallNow(ctx);
  const family = { appId, familyId, scopes: JSON.stringify(scopes), createdAt: iso(now) };
  const access = randomToken('crm_at_');
  insertToken(ctx.db, { ...family, hash: hashSecret(access), kind: 'access', expiresAt: iso(now + ACCESS_TTL_S * 1000) });
  credentialIssued(ctx.db);
  const response: TokenResponse = { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TTL_S, scope: scopes.join(' ') };
  if (withRefresh) {
    const refresh = randomToken('crm_rt_');
    insertToken(ctx.db, { ...family, hash: hashSecret(refresh), kind: 'refresh', expiresAt: iso(now + REFRESH_TTL_S * 1000) });
    response.refresh_token = refresh;
  }
  return response;
}

function revokeFamily(ctx: Ctx, familyId: string): void {
  revokeTokenFamily(ctx.db, familyId, iso(wallNow(ctx)));
}

/**
 * Runs a grant in one transaction. A refusal is returned, not thrown, so that what the refusal
 * itself writes (revoking a family on reuse) commits instead of rolling back with the throw.
 */
function grant(ctx: Ctx, run: () => TokenResponse | OAuthError): TokenResponse {
  const outcome = inTransaction(ctx, run);
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/; // RFC 7636 §4.1

export function exchangeCode(
  ctx: Ctx,
  app: AppRecord,
  p: { code?: string | undefined; redirect_uri?: string | undefined; code_verifier?: string | undefined },
): TokenResponse {
  if (!p.code) throw new OAuthError('invalid_request', 'The code parameter is missing.');
  if (!p.redirect_uri) throw new OAuthError('invalid_request', 'The redirect_uri parameter is missing: send the one of the authorization request.');
  if (!p.code_verifier) throw new OAuthError('invalid_request', 'The code_verifier parameter is missing (PKCE is required).');
  const hash = hashSecret(p.code);
  return grant(ctx, () => {
    const row = findCode(ctx.db, hash);
    if (!row || row.app_id !== app.id) return new OAuthError('invalid_grant', 'The authorization code is unknown or was issued to another client.');
    if (row.used_at) {
      // RFC 6749 §4.1.2: a code used twice was intercepted; what it bought is revoked too.
      if (row.family_id) revokeFamily(ctx, row.family_id);
      return new OAuthError('invalid_grant', 'The authorization code was already used; the tokens issued for it are now revoked.');
    }
    if (expired(ctx, row.expires_at)) return new OAuthError('invalid_grant', `The authorization code expired (codes live ${CODE_TTL_S} s).`);
    if (p.redirect_uri !== row.redirect_uri) return new OAuthError('invalid_grant', 'redirect_uri differs from the one of the authorization request.');
    const challenge = createHash('sha256').update(p.code_verifier!).digest('base64url');
    if (!VERIFIER.test(p.code_verifier!) || challenge !== row.code_challenge) {
      return new OAuthError('invalid_grant', 'PKCE verification failed: code_verifier does not match the code_challenge.');
    }
    const familyId = randomUUID();
    markCodeUsed(ctx.db, hash, familyId, iso(wallNow(ctx)));
    return issueTokens(ctx, app.id, familyId, JSON.parse(row.scopes) as string[], true);
  });
}

export function refreshGrant(ctx: Ctx, app: AppRecord, p: { refresh_token?: string | undefined; scope?: string | undefined }): TokenResponse {
  if (!p.refresh_token) throw new OAuthError('invalid_request', 'The refresh_token parameter is missing.');
  const hash = hashSecret(p.refresh_token);
  return grant(ctx, () => {
    const row = findToken(ctx.db, hash);
    if (!row || row.kind !== 'refresh' || row.app_id !== app.id)
      return new OAuthError('invalid_grant', 'The refresh token is unknown or was issued to another client.');
    if (row.revoked_at) return new OAuthError('invalid_grant', 'The refresh token was revoked.');
    if (row.used_at) {
      revokeFamily(ctx, row.family_id);
      return new OAuthError('invalid_grant', 'The refresh token was already used (tokens rotate); every token of this grant is now revoked.');
    }
    if (expired(ctx, row.expires_at)) return new OAuthError('invalid_grant', 'The refresh token expired.');
    // A narrower scope may be asked for, never a wider one (RFC 6749 §6); it then carries on.
    let scopes: string[];
    try {
      scopes = narrowScopes(JSON.parse(row.scopes) as string[], p.scope);
    } catch (error) {
      return error as OAuthError;
    }
    markTokenUsed(ctx.db, hash, iso(wallNow(ctx)));
    return issueTokens(ctx, app.id, row.family_id, scopes, true);
  });
}

/** The app acting for itself: its scopes (or fewer), no refresh token (RFC 6749 §4.4.3). */
export function clientCredentialsGrant(ctx: Ctx, app: AppRecord, p: { scope?: string | undefined }): TokenResponse {
  const scopes = narrowScopes(app.scopes, p.scope);
  purgeExpired(ctx);
  return grant(ctx, () => issueTokens(ctx, app.id, randomUUID(), scopes, false));
}

/**
 * RFC 7009: always "done", whatever the token was, so the answer tells nothing. An access token
 * is revoked alone; a refresh token takes its whole grant along. Tokens of other apps are left be.
 */
export function revokeToken(ctx: Ctx, app: AppRecord, token: string): void {
  const row = tokenOwner(ctx.db, hashSecret(token));
  if (!row || row.app_id !== app.id) return;
  if (row.kind === 'refresh') revokeFamily(ctx, row.family_id);
  else revokeTokenRow(ctx.db, hashSecret(token), iso(wallNow(ctx)));
}

/**
 * The principal behind an access token, or undefined. The subject is the app: rate limits and
 * usage count per app, so that neither a refresh nor a new grant starts a fresh budget.
 */
export function authenticateAccessToken(ctx: Ctx, token: string): Principal | undefined {
  const row = tokenRights(ctx.db, hashSecret(token));
  if (!row || row.kind !== 'access' || row.revoked_at || expired(ctx, row.expires_at)) return undefined;
  return { subject: row.app_id, scopes: JSON.parse(row.scopes) as string[], expiresAt: Date.parse(row.expires_at) };
}

const lastPurge = new WeakMap<Ctx['db'], number>();

/**
 * Drops codes and tokens a day past expiry, at most once a minute. The day's grace keeps reuse
 * detection working for a code or refresh token presented again shortly after it expired.
 */
function purgeExpired(ctx: Ctx): void {
  const now = wallNow(ctx);
  if (now - (lastPurge.get(ctx.db) ?? -Infinity) < 60_000) return;
  lastPurge.set(ctx.db, now);
  const cutoff = iso(now - 24 * 60 * 60 * 1000);
  dropCodesAndTokensExpiredBefore(ctx.db, cutoff);
}
