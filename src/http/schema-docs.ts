import { z } from 'zod';
import { ERRORS, type ErrorCode } from '../errors.js';
import { Problem } from '../schemas/common.js';
import { memoize } from '../memo.js';

/**
 * Response documentation helpers for route schemas: the error statuses a route can answer, each
 * described by the Problem schema, so the OpenAPI document lists them.
 */
type ProblemResponse = { description: string; content: { 'application/problem+json': { schema: typeof Problem } } };

// The same few lists of codes come back across ~100 routes: each is made once and shared. A route
// spreads the result into its own response object; the shared entries are frozen (Fastify and the
// OpenAPI transforms only read them). Made anew per route, they were ~1 ms of every start (docs/benchmarks.md).
const responsesFor = memoize(
  (key: string) => {
    const codes = (key ? key.split(' ') : []) as ErrorCode[];
    const byStatus = new Map<number, string[]>();
    for (const code of [
      'unauthenticated',
      'insufficient_scope',
      'headers_too_large',
      'rate_limited',
      'quota_exceeded',
      'internal_error',
      'unavailable',
      ...codes,
    ] as ErrorCode[]) {
      const status = ERRORS[code].status;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    const out: Record<number, ProblemResponse> = {};
    for (const [status, list] of byStatus) {
      const content = Object.freeze({ 'application/problem+json': Object.freeze({ schema: Problem }) });
      out[status] = Object.freeze({ description: list.map((c) => `\`${c}\``).join(', '), content });
    }
    return Object.freeze(out);
  },
  { maxEntries: 1000, maxKeyLength: 1000 },
);

export function errorResponses(...codes: ErrorCode[]): Record<number, ProblemResponse> {
  return responsesFor(codes.join(' '));
}

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'Deleted' });
export const BEARER = [{ bearerAuth: [] }];
