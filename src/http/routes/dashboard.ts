import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import type { Ctx } from '../../services/context.js';
import { sessionPrincipal, signInWithKey, signInWithToken, signOut } from '../../services/dashboard-sessions.js';
import { dashboardAssets } from '../dashboard/assets.js';
import { clearSessionCookie, dashboardHeader, sessionCookie, setSessionCookie } from '../dashboard/cookie.js';
import { isOwnHost, isSameOrigin } from '../dashboard/origin.js';
import { enterAccountOfBearer, enterAccountOfLoginToken, enterAccountOfSession } from '../../accounts/credentials.js';
import type { FailedAuthentications } from '../failed-authentications.js';
import type { AccountRegistry } from '../../accounts/registry.js';
import { surfaceOf } from '../route-surface.js';

/** The headers of every dashboard response (docs/dashboard.md#security-model), the CSP exactly as the contract writes it. */
const DASHBOARD_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * Runs first on every request: the dashboard's headers on its responses and /docs' (errors too), and 421
 * for /dashboard* and /_sandbox/* under a Host that is not the sandbox's own (DNS rebinding).
 */
export function registerDashboardGuards(app: FastifyInstance, ctx: Ctx): void {
  app.addHook('onRequest', async (request, reply) => {
    const surface = surfaceOf(request); // the matched route, not the raw URL: /%64ashboard/ is the dashboard too
    // no-store on everything but the two static files: pages and session answers may show secrets.
    if (surface === 'dashboard' || surface === 'docs') reply.headers(DASHBOARD_HEADERS).header('cache-control', 'no-store');
    if ((surface === 'dashboard' || surface === 'sandbox') && !isOwnHost(ctx, request)) {
      throw new ApiError(
        'misdirected_request',
        'This sandbox answers only to its own address, localhost, 127.0.0.1 or [::1] with its port (DNS rebinding protection).',
      );
    }
  });
}

const SignIn = z
  .strictObject({ login_token: z.string().min(1).max(200).optional(), api_key: z.string().min(1).max(200).optional() })
  .refine((b) => (b.login_token === undefined) !== (b.api_key === undefined), { message: 'Send either login_token or api_key.' });

/** Writes to the session must come from the dashboard's own pages. */
function requireDashboardOrigin(ctx: Ctx, request: FastifyRequest): void {
  if (!dashboardHeader(request) || !isSameOrigin(ctx, request)) {
    throw new ApiError('forbidden_origin', 'Sign-in and sign-out are accepted only from the dashboard itself (same origin, X-CRM-Dashboard: 1).');
  }
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}

/** `/` → `/dashboard/`, the page and its two files from memory, and the session endpoints. */
export function dashboardRoutes(fastify: FastifyInstance, ctx: Ctx, accounts: AccountRegistry, failures: FailedAuthentications): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const hide = { hide: true };

  app.get('/', { schema: hide }, async (_req, reply) => reply.redirect('/dashboard/', 302));
  const page = async (_req: FastifyRequest, reply: FastifyReply) => noStore(reply).type('text/html; charset=utf-8').send(dashboardAssets().html);
  app.get('/dashboard', { schema: hide }, page);
  app.get('/dashboard/*', { schema: hide }, page);
  app.get('/dashboard/assets/app.js', { schema: hide }, async (_req, reply) =>
    reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(dashboardAssets().js),
  );
  app.get('/dashboard/assets/app.css', { schema: hide }, async (_req, reply) =>
    reply.header('cache-control', 'no-cache').type('text/css; charset=utf-8').send(dashboardAssets().css),
  );

  app.post('/dashboard/session', { schema: { ...hide, body: SignIn } }, async (req, reply) => {
    requireDashboardOrigin(ctx, req);
    if (req.body.login_token !== undefined) enterAccountOfLoginToken(accounts, req.body.login_token);
    else enterAccountOfBearer(accounts, req.body.api_key!);
    let session;
    try {
      session = req.body.login_token !== undefined ? signInWithToken(ctx, req.body.login_token) : signInWithKey(ctx, req.body.api_key!);
    } catch (error) {
      // A refused key or link counts with refused bearers: the sign-in is no cheaper way to guess keys.
      if (error instanceof ApiError && error.code === 'unauthenticated') failures.refuse(req, error);
      throw error;
    }
    setSessionCookie(ctx, reply, session);
    return noStore(reply).send({ key_id: session.principal.subject, scopes: session.principal.scopes, expires_at: session.expires_at });
  });

  app.get('/dashboard/session', { schema: hide }, async (req, reply) => {
    const id = sessionCookie(ctx, req);
    if (id) enterAccountOfSession(accounts, id);
    const principal = id && dashboardHeader(req) ? sessionPrincipal(ctx, id) : undefined;
    if (!principal) throw new ApiError('unauthenticated', 'Not signed in to the dashboard.');
    return noStore(reply).send({ key_id: principal.subject, scopes: principal.scopes });
  });

  app.delete('/dashboard/session', { schema: hide }, async (req, reply) => {
    requireDashboardOrigin(ctx, req);
    const id = sessionCookie(ctx, req);
    if (id && enterAccountOfSession(accounts, id)) signOut(ctx, id);
    clearSessionCookie(ctx, reply);
    return noStore(reply).code(204).send();
  });
}
