import type { FastifyInstance, FastifyRequest } from 'fastify';
import { missingScope } from '../../domain/scopes.js';
import { ApiError, insufficientScope } from '../../errors.js';
import type { Principal } from '../../services/api-keys.js';
import type { Ctx } from '../../services/context.js';
import { sessionPrincipal } from '../../services/dashboard-sessions.js';
import { authenticateBearer } from '../credential.js';
import type { FailedAuthentications } from '../failed-authentications.js';
import { dashboardHeader, sessionCookie } from '../dashboard/cookie.js';
import { isSameOrigin } from '../dashboard/origin.js';
import { enterAccountOfBearer, enterAccountOfSession } from '../../accounts/credentials.js';
import { currentAccountOr } from '../../accounts/current.js';
import type { AccountRegistry } from '../../accounts/registry.js';
import { surfaceOf } from '../route-surface.js';
import { resourceMetadataUrl } from '../oauth-resource.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a route needs; routes without one are public. */
    scope?: string;
    /**
     * Access checks that need the validated body or the target (the scopes a conversion writes, the
     * scopes a new key may hold, the key to revoke). Run after validation and before an idempotent
     * replay is answered (plugins/idempotency.ts): a stored response goes only to a credential that
     * could make the request itself. Throws 403 (or the check's own error) to refuse.
     */
    authorize?: (request: FastifyRequest) => void;
    /**
     * The route is an OAuth protected resource with metadata of its own (RFC 9728, /mcp): its 401
     * names where that metadata is, which is how an MCP client finds where to sign in.
     */
    protectedResource?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /**
     * Whether the request's account was found through the credential it carries (even one that
     * is then refused: revoked, expired, lacking a scope). Only then does that account's request
     * log record it: an unknown key is no account's business.
     */
    ownAccount: boolean;
  }
}

const REALM = 'Bearer realm="crm"';

export { FAILED_AUTH_LIMIT } from '../failed-authentications.js';

/** For routes that need a valid key or token but check scopes further in (the MCP endpoint). */
export const ANY_SCOPE = 'any';

/** The token of an `Authorization: Bearer …` header, if the request has one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Bearer authentication and scope checks on every route that names a scope (docs/reference/access.md#scopes).
 * The lookup runs on every request, so a revoked key fails on the very next one.
 */
export function registerAuth(app: FastifyInstance, ctx: Ctx, accounts: AccountRegistry, failures: FailedAuthentications): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('ownAccount', false);
  app.decorateRequest('credential', null);
  // RFC 9728 §5.1: a protected resource's challenge carries resource_metadata.
  const challenge = (request: FastifyRequest, error?: string): string => {
    const parts = [REALM, ...(error ? [`error="${error}"`] : [])];
    if (request.routeOptions.config?.protectedResource) parts.push(`resource_metadata="${resourceMetadataUrl(ctx, request, request.routeOptions.url!)}"`);
    return parts.join(', ');
  };
  const refuse = (request: FastifyRequest, detail: string): never =>
    failures.refuse(request, new ApiError('unauthenticated', detail, { headers: { 'www-authenticate': challenge(request, 'invalid_token') } }));
  app.addHook('onRequest', async (request) => {
    const scope = request.routeOptions.config?.scope;
    if (!scope) return;
    const token = bearerToken(request);
    if (!token) {
      const fromSession = dashboardPrincipal(ctx, accounts, request);
      if (fromSession) {
        request.ownAccount = true;
        // Before the scope check: a refused request is still the dashboard's in the request log.
        request.credential = { kind: 'session', id: sessionCookie(ctx, request)! };
        if (scope !== ANY_SCOPE) requireScopes(fromSession, [scope]);
        request.principal = fromSession;
        return;
      }
      throw new ApiError('unauthenticated', 'Send an API key as "Authorization: Bearer <key>". The sandbox prints its admin key at start.', {
        headers: { 'www-authenticate': challenge(request) },
      });
    }
    request.ownAccount = enterAccountOfBearer(accounts, token) !== undefined;
    const principal = authenticateBearer(ctx, token);
    if (!principal) return refuse(request, 'The API key or access token is unknown, revoked or expired.');
    if (scope !== ANY_SCOPE) requireScopes(principal, [scope]);
    request.principal = principal;
    request.credential = { kind: 'bearer', token };
  });
  // Registered before the idempotency plugin's replay hook and the fault hook, so both run after it.
  app.addHook('preHandler', async (request) => request.routeOptions.config?.authorize?.(request));
  // Sandbox control is for the sandbox admin key (the default account's) alone (docs/accounts.md#the-default-account-and-the-sandbox-admin-key).
  app.addHook('onRequest', async (request) => {
    if (request.principal && surfaceOf(request) === 'sandbox' && !currentAccountOr(() => accounts.default).isDefault) {
      throw new ApiError(
        'insufficient_scope',
        'Only the sandbox admin key (printed by `crm sandbox start`) may call /_sandbox/*; this key belongs to another account.',
      );
    }
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The dashboard's session cookie stands in for a bearer token only on requests the dashboard
 * itself makes (docs/dashboard.md#security-model): they carry `X-CRM-Dashboard: 1` (a header a cross-site form or
 * image cannot send), and writes also come from the same origin. Otherwise the cookie is
 * ignored, so a cross-site request can neither read nor change anything.
 */
function dashboardPrincipal(ctx: Ctx, accounts: AccountRegistry, request: FastifyRequest): Principal | undefined {
  if (!dashboardHeader(request)) return undefined;
  const id = sessionCookie(ctx, request);
  if (!id) return undefined;
  enterAccountOfSession(accounts, id);
  if (!SAFE_METHODS.has(request.method) && !isSameOrigin(ctx, request)) return undefined;
  return sessionPrincipal(ctx, id);
}

/** 403 naming the first scope the principal lacks (actions that write several resources need all). */
export function requireScopes(principal: Principal | null, needed: string[]): void {
  const missing = missingScope(principal?.scopes ?? [], needed);
  if (missing) throw insufficientScope(missing, `This key lacks the scope '${missing}'.`);
}
