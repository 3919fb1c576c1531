import type { FastifyInstance, FastifyReply } from 'fastify';
import { nearestExhaustion, type PolicyState, type RateLimiter } from '../../domain/rate-limit.js';
import { ApiError } from '../../errors.js';
import { surfaceOf } from '../route-surface.js';

/**
 * Rate limits and quotas per key or token (docs/reference/limits.md#rate-limits-and-quotas). Every authenticated /v1 response carries
 * the draft-ietf-httpapi-ratelimit-headers fields and the de-facto X-RateLimit-* triple for the
 * policy nearest exhaustion; past a limit the answer is 429 with Retry-After.
 */
export function registerRateLimit(app: FastifyInstance, currentLimiter: () => RateLimiter): void {
  // Runs after authentication (hooks run in registration order), so the subject and its account
  // (whose plan sets the policies) are known.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.principal || surfaceOf(request) !== 'api') return;
    const limiter = currentLimiter();
    if (limiter.policies.length === 0) return;
    const { states, refusedBy } = limiter.hit(request.principal.subject);
    setHeaders(reply, policyHeader(limiter), refusedBy ?? nearestExhaustion(states)!);
    if (refusedBy) {
      const daily = refusedBy.policy.name === 'daily';
      throw new ApiError(
        daily ? 'quota_exceeded' : 'rate_limited',
        daily
          ? `The quota of ${refusedBy.policy.quota} requests per ${refusedBy.policy.windowSeconds} s is used up; it resets in ${refusedBy.reset} s.`
          : `More than ${refusedBy.policy.quota} requests in ${refusedBy.policy.windowSeconds} s. Retry after ${refusedBy.reset} s.`,
        { headers: { 'retry-after': String(refusedBy.reset) } },
      );
    }
  });
}

const headers = new WeakMap<RateLimiter, string>();
function policyHeader(limiter: RateLimiter): string {
  let text = headers.get(limiter);
  if (text === undefined) headers.set(limiter, (text = limiter.policies.map((p) => `"${p.name}";q=${p.quota};w=${p.windowSeconds}`).join(', ')));
  return text;
}

function setHeaders(reply: FastifyReply, policyHeader: string, state: PolicyState): void {
  reply.header('ratelimit-policy', policyHeader);
  reply.header('ratelimit', `"${state.policy.name}";r=${state.remaining};t=${state.reset}`);
  reply.header('x-ratelimit-limit', String(state.policy.quota));
  reply.header('x-ratelimit-remaining', String(state.remaining));
  reply.header('x-ratelimit-reset', String(state.reset));
}
