import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Session } from '../../services/dashboard-sessions.js';
import { SESSION_TTL_MS } from '../../services/dashboard-sessions.js';

/** The dashboard's session cookie (API.md §11): HttpOnly, SameSite=Strict, the whole site, 12 h. */
export const SESSION_COOKIE = 'crm_session';

/** The session cookie's value, from the Cookie header (no library: one name, base64url values). */
export function sessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export function setSessionCookie(reply: FastifyReply, session: Session): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=${session.id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_MS / 1000}`);
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`);
}

/** True when a request may use the session cookie for /v1: the dashboard's header, and same origin for writes. */
export function dashboardHeader(request: FastifyRequest): boolean {
  return request.headers['x-crm-dashboard'] === '1';
}
