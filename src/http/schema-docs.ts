import { z } from 'zod';
import { ERRORS, type ErrorCode } from '../errors.js';
import { Problem } from '../schemas/common.js';

/**
 * Response documentation helpers for route schemas: the error statuses a route can answer, each
 * described by the Problem schema, so the OpenAPI document lists them.
 */
export function errorResponses(...codes: ErrorCode[]): Record<number, typeof Problem> {
  const out: Record<number, typeof Problem> = {};
  for (const code of ['unauthenticated', 'insufficient_scope', ...codes] as ErrorCode[]) out[ERRORS[code].status] = Problem;
  return out;
}

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'Deleted' });
export const BEARER = [{ bearerAuth: [] }];
