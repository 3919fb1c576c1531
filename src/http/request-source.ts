import type { FastifyRequest } from 'fastify';
import type { RequestSource } from '../schemas/request-source.js';

/**
 * Who made a /v1 request, for the request log and the usage counts: the dashboard when its session
 * cookie let the request in (auth.ts sets that credential only for the dashboard's own requests,
 * which carry X-CRM-Dashboard), anything else "api".
 */
export function requestSource(request: FastifyRequest): RequestSource {
  return request.credential?.kind === 'session' ? 'dashboard' : 'api';
}
