import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../../services/context.js';
import type { Session } from '../../services/dashboard-sessions.js';
import { SESSION_TTL_MS } from '../../services/dashboard-sessions.js';
import { ownPort } from './origin.js';

/**
 * The dashboard's session cookie (docs/dashboard.md#signing-in, docs/security.md#keys-tokens-and-sessions): HttpOnly, SameSite=Strict, the whole site, 12 h,
 * named `crm_session_<port>`. Cookies ignore ports (RFC 6265 §8.5): a browser keeps one jar for
 * 127.0.0.1 and sends it to every port, so with one name two sandboxes overwrote each other's
 * session. The port in the name is what keeps them apart: each sandbox reads only its own.
 *
 * It does not keep other local servers from receiving the cookie; no attribute can. `__Host-`
 * would not either (it pins host and path, not port), and it needs `Secure`, which a cookie set
 * over plain http (the sandbox's only scheme, also on a LAN address with --host) cannot have.
 */
const SESSION_COOKIE_PREFIX = 'crm_session_';

const sessionCookieName = (ctx: Ctx, request: FastifyRequest): string => `${SESSION_COOKIE_PREFIX}${ownPort(ctx, request)}`;

/** The session cookie's value, from the Cookie header (no library: one name, base64url values). */
export function sessionCookie(ctx: Ctx, request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const name = sessionCookieName(ctx, request);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export function setSessionCookie(ctx: Ctx, reply: FastifyReply, session: Session): void {
  reply.header('set-cookie', `${sessionCookieName(ctx, reply.request)}=${session.id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_MS / 1000}`);
}

export function clearSessionCookie(ctx: Ctx, reply: FastifyReply): void {
  reply.header('set-cookie', `${sessionCookieName(ctx, reply.request)}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`);
}

/** True when a request may use the session cookie for /v1: the dashboard's header, and same origin for writes. */
export function dashboardHeader(request: FastifyRequest): boolean {
  return request.headers['x-crm-dashboard'] === '1';
}
