import { randomToken } from '../domain/tokens.js';
import { SCOPES } from '../schemas/api-key.js';
import type { ClientRegistrationRequest, ClientRegistrationResponse } from '../schemas/oauth-registration.js';
import { countSelfRegisteredApps, insertOAuthApp, type AppRecord } from '../store/oauth-apps.js';
import { hashSecret } from './api-keys.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';
import { OAuthError } from './oauth-apps.js';

/**
 * Dynamic client registration (RFC 7591) for MCP clients (docs/security.md#mcp-clients-that-register-themselves).
 * Anyone who reaches the port may register, so an app made here can do nothing by itself: it is a
 * public client (no secret, PKCE required, no client_credentials grant), and only a signed-in
 * dashboard user may approve it, for scopes the user's key holds. What is left to an attacker is
 * filling the table: capped per account, per hour and in all.
 */
const SELF_REGISTERED_PER_HOUR = 20;
const SELF_REGISTERED_MAX = 100;

const HOUR_MS = 60 * 60 * 1000;

export function registerPublicClient(ctx: Ctx, input: ClientRegistrationRequest): ClientRegistrationResponse {
  const now = nowIso(ctx);
  const counts = countSelfRegisteredApps(ctx.db, new Date(Date.parse(now) - HOUR_MS).toISOString());
  if (counts.total >= SELF_REGISTERED_MAX) {
    throw new OAuthError(
      'temporarily_unavailable',
      `This sandbox already holds ${SELF_REGISTERED_MAX} self-registered OAuth apps, the most it keeps. Delete unused ones in the dashboard (OAuth apps) and register again.`,
      429,
    );
  }
  if (counts.recent >= SELF_REGISTERED_PER_HOUR) {
    const retryAfter = Math.max(1, Math.ceil((Date.parse(counts.oldestRecent!) + HOUR_MS - Date.parse(now)) / 1000));
    throw new OAuthError(
      'temporarily_unavailable',
      `At most ${SELF_REGISTERED_PER_HOUR} OAuth clients may register themselves per hour. Retry in ${retryAfter} s.`,
      429,
      { 'retry-after': String(retryAfter) },
    );
  }
  const scopes = input.scope === undefined ? [...SCOPES] : [...new Set(input.scope.trim().split(/ +/))];
  const app: AppRecord = {
    id: ctx.ids.next('app'),
    name: input.client_name ?? 'Unnamed MCP client',
    client_id: randomToken('crm_client_', 24),
    // A public client has no secret; the column wants a hash, so it gets one of a secret nobody is given.
    secret_hash: hashSecret(randomToken('crm_cs_')),
    redirect_uris: [...new Set(input.redirect_uris)],
    scopes,
    registered_by: null,
    self_registered: true,
    created_at: now,
  };
  insertOAuthApp(ctx.db, app);
  return {
    client_id: app.client_id,
    client_id_issued_at: Math.floor(Date.parse(now) / 1000),
    client_name: app.name,
    redirect_uris: app.redirect_uris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // Whatever the client asked for (RFC 7591 §3.2.1 lets the server substitute its own).
    token_endpoint_auth_method: 'none',
    scope: scopes.join(' '),
  };
}
