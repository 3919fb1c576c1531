import { pinContext } from '../accounts/current.js';
import { authenticateKey, KEY_PREFIX, type Principal } from '../services/api-keys.js';
import type { Ctx } from '../services/context.js';
import { sessionPrincipal } from '../services/dashboard-sessions.js';
import { authenticateAccessToken } from '../services/oauth-tokens.js';

/**
 * The credential a request was let in with: a bearer token (an API key or an OAuth access token)
 * or a dashboard session id. The request keeps it so that what outlives the request (a stream)
 * can ask again, later, whether it still stands.
 */
export type Credential = { kind: 'bearer'; token: string } | { kind: 'session'; id: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by authentication (or by a route that checks a session itself); null on public routes. */
    credential: Credential | null;
  }
}

/**
 * The principal behind a bearer token. API keys are told apart by their prefix; anything else is
 * an OAuth access token, or a key registered with `--api-key K` in another shape.
 */
export function authenticateBearer(ctx: Ctx, token: string, options: { recordUse?: boolean } = {}): Principal | undefined {
  return token.startsWith(KEY_PREFIX) ? authenticateKey(ctx, token, options) : (authenticateAccessToken(ctx, token) ?? authenticateKey(ctx, token, options));
}

/**
 * The principal a credential stands for now: undefined once it is revoked or expired, or its
 * session ended. A check, not a use: it records no key's last use.
 */
function principalOfCredential(ctx: Ctx, credential: Credential): Principal | undefined {
  return credential.kind === 'bearer' ? authenticateBearer(ctx, credential.token, { recordUse: false }) : sessionPrincipal(ctx, credential.id);
}

/**
 * "Does the credential still stand?", asked of the account it belongs to (the current account's
 * Ctx, pinned: a stream's listeners run later, from other requests' scopes). It is answered the
 * way a new request with the credential would be, from the database every time, so whatever ended
 * the credential (a revoke through the API, the CLI or the dashboard, an OAuth revoke or reuse
 * detection, a sign-out, an expiry, the account's deletion) ends it here too, with no list of
 * those paths to keep up to date.
 */
export function credentialCheck(ctx: Ctx, credential: Credential): () => boolean {
  const own = pinContext(ctx);
  // A deleted account's database is closed: the account, and its credentials with it, are gone.
  return () => own.db.open && principalOfCredential(own, credential) !== undefined;
}
