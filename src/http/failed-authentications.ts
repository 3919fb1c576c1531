import type { FastifyRequest } from 'fastify';
import { RateLimiter } from '../domain/rate-limit.js';
import { ApiError } from '../errors.js';

/**
 * Failed authentications (a credential presented and refused) per client address and minute;
 * past it, 429 instead of 401 until the minute ends. Valid credentials are never held back.
 */
export const FAILED_AUTH_LIMIT = 100;

/**
 * The one count of refused credentials per address, shared by every way in that takes one: a
 * bearer on an API route (plugins/auth.ts) and a key pasted into the dashboard's sign-in
 * (routes/dashboard.ts), so that guessing keys through the sign-in costs as much as through /v1.
 */
export class FailedAuthentications {
  private readonly limiter = new RateLimiter([{ name: 'failed_authentication', quota: FAILED_AUTH_LIMIT, windowSeconds: 60 }]);

  /** Counts `refusal` against the request's address and throws it, or 429 once the address is past the limit. */
  refuse(request: FastifyRequest, refusal: ApiError): never {
    const { refusedBy } = this.limiter.hit(request.ip);
    if (refusedBy) {
      throw new ApiError(
        'rate_limited',
        `More than ${FAILED_AUTH_LIMIT} failed authentications from this address in a minute. Retry after ${refusedBy.reset} s.`,
        {
          headers: { 'retry-after': String(refusedBy.reset) },
        },
      );
    }
    throw refusal;
  }
}
