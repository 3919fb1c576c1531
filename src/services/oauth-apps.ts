import { timingSafeEqual } from 'node:crypto';
import { randomToken } from '../domain/tokens.js';
import { hasScope } from '../domain/scopes.js';
import { notFound } from '../errors.js';
import { SCOPES } from '../schemas/api-key.js';
import type { OAuthApp, OAuthAppCreate } from '../schemas/oauth.js';
import { deleteOAuthAppRow, findOAuthApp, insertOAuthApp, listOAuthAppPage, oauthAppByClientId, type AppRecord } from '../store/oauth-apps.js';
import { hashSecret, type Principal } from './api-keys.js';
import { requireAuthorityOver } from './key-authority.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';

/**
 * OAuth apps (docs/reference/access.md#oauth-20): registration, client authentication and scope narrowing. The errors
 * here are RFC 6749's, not problem+json: OAuth clients and libraries understand only those.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'temporarily_unavailable'
  | 'server_error';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    description: string,
    readonly status = error === 'invalid_client' ? 401 : error === 'server_error' ? 500 : 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

export type { AppRecord };

const view = (app: AppRecord): OAuthApp => {
  const { secret_hash: _hash, ...shown } = app;
  return shown;
};

/** `by`: the key (or session's key) registering it, kept as registered_by. */
export function createOAuthApp(ctx: Ctx, input: OAuthAppCreate, by: Principal | null): OAuthApp & { client_secret: string } {
  const clientSecret = randomToken('crm_cs_');
  const app: AppRecord = {
    id: ctx.ids.next('app'),
    name: input.name,
    // The client id is public (it is in every authorization URL), so it is short and not secret.
    client_id: randomToken('crm_client_', 24),
    secret_hash: hashSecret(clientSecret),
    redirect_uris: [...new Set(input.redirect_uris)],
    scopes: [...new Set(input.scopes)],
    registered_by: by?.subject ?? null,
    self_registered: false,
    created_at: nowIso(ctx),
  };
  insertOAuthApp(ctx.db, app);
  return { ...view(app), client_secret: clientSecret };
}

export function listOAuthApps(ctx: Ctx, q: { limit: number; cursor?: string | undefined }) {
  return listOAuthAppPage(ctx.db, ctx.cursorSecret, q, view);
}

/**
 * Deletes an app with its codes and tokens (ON DELETE CASCADE): every token it was issued fails
 * on its next request, and its client_id can no longer start a grant. `by` must hold every scope
 * the app holds (key-authority.ts).
 */
export function deleteOAuthApp(ctx: Ctx, id: string, by: Principal | null): { id: string; deleted: true } {
  const app = findOAuthApp(ctx.db, id);
  if (!app) throw notFound('OAuth app', id);
  requireAuthorityOver(by, 'delete', { kind: 'OAuth app', id, scopes: app.scopes });
  deleteOAuthAppRow(ctx.db, id);
  return { id, deleted: true as const };
}

/** 403 unless `by` holds every scope of app `id` (key-authority.ts); an app that does not exist is the caller's 404 to give. */
export function requireAuthorityOverApp(ctx: Ctx, by: Principal | null, id: string): void {
  const app = findOAuthApp(ctx.db, id);
  if (app) requireAuthorityOver(by, 'delete', { kind: 'OAuth app', id, scopes: app.scopes });
}

export function findAppByClientId(ctx: Ctx, clientId: string): AppRecord | undefined {
  return oauthAppByClientId(ctx.db, clientId);
}

/** The app whose credentials these are, or invalid_client (401) without saying which part was wrong. */
export function authenticateClient(ctx: Ctx, clientId: string, clientSecret: string): AppRecord {
  const app = findAppByClientId(ctx, clientId);
  const presented = Buffer.from(hashSecret(clientSecret), 'hex');
  // Compare hashes in constant time so the answer's timing says nothing about the secret.
  if (!app || !timingSafeEqual(presented, Buffer.from(app.secret_hash, 'hex'))) {
    throw new OAuthError('invalid_client', 'Client authentication failed: unknown client_id or wrong client_secret.');
  }
  return app;
}

/**
 * A public client (a self-registered one) naming itself at the token or revocation endpoint with
 * its client_id alone; any other app must authenticate (invalid_client, as for a wrong secret).
 */
export function publicClient(ctx: Ctx, clientId: string): AppRecord {
  const app = findAppByClientId(ctx, clientId);
  if (!app?.self_registered) throw new OAuthError('invalid_client', 'Client authentication failed: send the client_secret (this client is not a public one).');
  return app;
}

/**
 * The scopes a request ends up with: the space-separated `requested` ones, each within `allowed`
 * (`x:write` covers `x:read`), or all of `allowed` when none are named (RFC 6749 §3.3). Asking
 * for more is invalid_scope, never a silent cut, so an app learns at once what it cannot have.
 */
export function narrowScopes(allowed: readonly string[], requested: string | undefined): string[] {
  if (requested === undefined || requested.trim() === '') return [...allowed];
  const names = [...new Set(requested.trim().split(/ +/))];
  const unknown = names.find((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown) throw new OAuthError('invalid_scope', `Unknown scope '${unknown}'.`);
  const beyond = names.find((s) => !hasScope(allowed, s));
  if (beyond) throw new OAuthError('invalid_scope', `The scope '${beyond}' is beyond what this client was granted or registered for.`);
  return names;
}
