import { z } from 'zod';
import { ERRORS, type ErrorCode } from '../errors.js';
import { Problem } from '../schemas/common.js';

/**
 * Response documentation helpers for route schemas: the error statuses a route can answer, each
 * described by the Problem schema, so the OpenAPI document lists them.
 */
type ProblemResponse = { description: string; content: { 'application/problem+json': { schema: typeof Problem } } };

export function errorResponses(...codes: ErrorCode[]): Record<number, ProblemResponse> {
  const byStatus = new Map<number, string[]>();
  for (const code of ['unauthenticated', 'insufficient_scope', 'headers_too_large', 'rate_limited', 'quota_exceeded', 'internal_error', 'unavailable', ...codes] as ErrorCode[]) {
    const status = ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, ProblemResponse> = {};
  for (const [status, list] of byStatus) {
    out[status] = { description: list.map((c) => `\`${c}\``).join(', '), content: { 'application/problem+json': { schema: Problem } } };
  }
  return out;
}

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'Deleted' });
export const BEARER = [{ bearerAuth: [] }];
