import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../../services/context.js';

/**
 * Which requests come from the sandbox's own pages (docs/dashboard.md#security-model). DNS rebinding points a foreign
 * name at 127.0.0.1, so the Host header must name the sandbox itself; and a write carrying the
 * session cookie must come from a page of the same origin.
 */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** The sandbox's address: its host name (empty before it listens) and its port. */
function ownAddress(ctx: Ctx, request: FastifyRequest): { name: string; port: string } {
  try {
    const url = new URL(ctx.baseUrl());
    return { name: url.hostname, port: url.port || '80' };
  } catch {
    // Not listening yet (tests that inject): the port the request came in on.
    return { name: '', port: String(request.socket?.localPort ?? '80') };
  }
}

/** The port the sandbox listens on. */
export const ownPort = (ctx: Ctx, request: FastifyRequest): string => ownAddress(ctx, request).port;

/** The Host values the sandbox answers to: its own address, and the loopback names, with its port. */
function ownHosts(ctx: Ctx, request: FastifyRequest): Set<string> {
  const { name: own, port } = ownAddress(ctx, request);
  const names = own ? [own, ...LOOPBACK_NAMES] : LOOPBACK_NAMES;
  const hosts = new Set(names.map((n) => `${n}:${port}`));
  // A client may leave out the default port.
  if (port === '80') for (const n of names) hosts.add(n);
  return hosts;
}

export function isOwnHost(ctx: Ctx, request: FastifyRequest): boolean {
  return namesThisSandbox(ctx, request, request.headers.host ?? '');
}

/** True when `host` (a Host header, or a URL's host) is one the sandbox answers to. */
export function namesThisSandbox(ctx: Ctx, request: FastifyRequest, host: string): boolean {
  return ownHosts(ctx, request).has(host.toLowerCase());
}

/** True when the `Origin` header is http://<Host>, for a Host the sandbox answers to. */
export function isOwnOrigin(ctx: Ctx, request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin || !isOwnHost(ctx, request)) return false;
  return origin.toLowerCase() === `http://${(request.headers.host ?? '').toLowerCase()}`;
}

/**
 * True when the browser says the request comes from a page of this origin: `Sec-Fetch-Site:
 * same-origin`, or an `Origin` of the sandbox's own (isOwnOrigin).
 */
export function isSameOrigin(ctx: Ctx, request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  return isOwnOrigin(ctx, request);
}
