import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_COOKIE, SESSION_TTL_MS, type DashboardSessions } from '../../dashboard/sessions.js';
import { ApiError } from '../../errors.js';
import { IN_SEA, seaText } from '../../sea.js';
import { authenticateKey, KEY_PREFIX } from '../../services/api-keys.js';
import type { Ctx } from '../../services/context.js';
import { bearerToken, requireScopes } from '../plugins/auth.js';
import { cookie } from '../plugins/dashboard-guard.js';
import { BEARER, errorResponses } from '../schema-docs.js';

/**
 * The web dashboard (API.md §11): one HTML page for every /dashboard/… URL (the app routes in the
 * browser, so deep links and reloads work), one script and one stylesheet, all from memory; the
 * sign-in that trades a login token (or a pasted API key) for a session cookie; and the admin call
 * that mints login tokens. The app itself is a client of /v1 (web/src).
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

interface Assets {
  html: string;
  js: string;
  css: string;
}

/** The built app (scripts/build-web.mjs → dist/web), or inside the single binary its embedded copy. */
function loadAssets(): Assets {
  if (IN_SEA) return { html: seaText('web/index.html'), js: seaText('web/app.js'), css: seaText('web/app.css') };
  const dir = join(import.meta.dirname, '..', '..', 'web');
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  return { html: read('index.html'), js: read('app.js'), css: read('app.css') };
}

const SignIn = z.strictObject({
  token: z.string().min(1).max(200).optional().describe('A login token from the URL crm sandbox start printed'),
  api_key: z.string().min(1).max(200).optional().describe('Or an API key: the dashboard then allows what its scopes allow'),
});

export function dashboardRoutes(fastify: FastifyInstance, ctx: Ctx, sessions: DashboardSessions): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  let assets: Assets | undefined;
  const built = (): Assets => (assets ??= loadAssets());

  // Every dashboard response: the §11 headers. HTML and session answers are never cached.
  app.addHook('onSend', async (request, reply) => {
    if (!request.url.startsWith('/dashboard')) return;
    reply.header('content-security-policy', CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    if (!request.url.startsWith('/dashboard/assets/')) reply.header('cache-control', 'no-store');
  });

  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/', 302));

  const page = async (_request: unknown, reply: FastifyReply) => reply.type('text/html; charset=utf-8').send(built().html);
  app.get('/dashboard/', { schema: { hide: true } }, page);
  app.get('/dashboard/assets/app.js', { schema: { hide: true } }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(built().js));
  app.get('/dashboard/assets/app.css', { schema: { hide: true } }, async (_request, reply) => reply.type('text/css; charset=utf-8').send(built().css));
  app.get('/dashboard/*', { schema: { hide: true } }, page);

  app.post('/dashboard/session', {
    schema: { hide: true, body: SignIn },
    handler: async (request, reply) => {
      const { token, api_key: apiKey } = request.body;
      let id: string | undefined;
      if (token) id = sessions.redeem(token);
      else if (apiKey && (apiKey.startsWith(KEY_PREFIX) ? authenticateKey(ctx, apiKey) : null)) id = sessions.open(apiKey);
      if (!id) {
        throw new ApiError('unauthenticated', token ? 'This sign-in link was used already or has expired: run `crm dashboard` for a fresh one.' : 'Unknown, revoked or expired API key.');
      }
      reply.header('set-cookie', `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_MS / 1000}`);
      return { signed_in: true };
    },
  });

  // Who the session is: the page asks on load (the cookie is HttpOnly, so the page cannot read it).
  app.get('/dashboard/session', { schema: { hide: true } }, async (request) => {
    const id = cookie(request, SESSION_COOKIE);
    const apiKey = id ? sessions.apiKeyOf(id) : undefined;
    const principal = apiKey ? authenticateKey(ctx, apiKey) : null;
    if (!principal) return { signed_in: false };
    return { signed_in: true, scopes: principal.scopes, base_url: ctx.baseUrl() };
  });

  app.delete('/dashboard/session', { schema: { hide: true } }, async (request, reply) => {
    const id = cookie(request, SESSION_COOKIE);
    if (id) sessions.close(id);
    reply.header('set-cookie', `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`);
    return { signed_in: false };
  });

  app.post('/_sandbox/dashboard_logins', {
    config: { scope: '*' },
    schema: {
      tags: ['Sandbox'],
      security: BEARER,
      summary: 'A single-use dashboard sign-in link, valid 15 minutes, acting as the calling key',
      response: {
        201: z.object({ url: z.string().max(300), token: z.string().max(100), expires_at: z.string().max(64) }).meta({ id: 'DashboardLogin' }),
        ...errorResponses(),
      },
    },
    handler: async (request, reply) => {
      requireScopes(request.principal, ['*']);
      const apiKey = bearerToken(request);
      if (!apiKey) throw new ApiError('unauthenticated', 'Mint sign-in links with the admin key as a bearer token (crm dashboard does).');
      const { token, expiresAt } = sessions.mintLogin(apiKey);
      reply.code(201).header('cache-control', 'no-store');
      return { url: `${ctx.baseUrl()}/dashboard/#login=${token}`, token, expires_at: new Date(expiresAt).toISOString() };
    },
  });
}
