import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, type DashboardSessions } from '../../dashboard/sessions.js';
import { ApiError } from '../../errors.js';
import type { Ctx } from '../../services/context.js';

/**
 * The browser's side of the sandbox's security (API.md §11).
 * - DNS rebinding: a page on evil.example whose name is made to point at 127.0.0.1 reaches the
 *   sandbox with `Host: evil.example:4010`. Requests to /dashboard* and /_sandbox/* must name the
 *   sandbox itself (its address, localhost, 127.0.0.1 or [::1], with its port), else 421.
 * - The session cookie counts on /v1 only with `X-CRM-Dashboard: 1` (a header no cross-site form or
 *   image can send, and that makes a cross-site fetch preflight, which the sandbox never approves)
 *   and, for writes, an Origin (or Sec-Fetch-Site) that is the sandbox's own. Otherwise it is
 *   ignored, so a cross-site request is simply unauthenticated.
 */
const GUARDED = /^\/(?:dashboard(?:\/|$|\?)|_sandbox\/)/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** host:port names under which the sandbox is itself. */
export function ownHosts(ctx: Ctx): Set<string> {
  const url = new URL(ctx.baseUrl());
  const port = url.port || '80';
  return new Set([url.host, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
}

export function registerHostCheck(app: FastifyInstance, ctx: Ctx): void {
  app.addHook('onRequest', async (request) => {
    if (!GUARDED.test(request.url)) return;
    if (!ownHosts(ctx).has(String(request.headers.host ?? '').toLowerCase())) {
      throw new ApiError('misdirected_request', 'This sandbox answers to its own address only (localhost or 127.0.0.1 with its port): open the URL it printed.');
    }
  });
}

export function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of String(request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The API key a dashboard session acts as, when this request may use the session cookie. */
export function sessionApiKey(request: FastifyRequest, ctx: Ctx, sessions: DashboardSessions): string | undefined {
  if (request.headers['x-crm-dashboard'] !== '1') return undefined;
  const id = cookie(request, SESSION_COOKIE);
  if (!id) return undefined;
  if (!SAFE_METHODS.has(request.method) && !sameOrigin(request, ctx)) return undefined;
  return sessions.apiKeyOf(id);
}

function sameOrigin(request: FastifyRequest, ctx: Ctx): boolean {
  const origin = request.headers.origin;
  if (origin) {
    try {
      const url = new URL(origin);
      return url.protocol === 'http:' && ownHosts(ctx).has(url.host);
    } catch {
      return false;
    }
  }
  return request.headers['sec-fetch-site'] === 'same-origin';
}
