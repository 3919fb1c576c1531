import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import { BEARER, errorResponses } from '../schema-docs.js';
import { routedTarget } from '../route-surface.js';

/**
 * Fault injection, as LocalStack's chaos API offers: make the next N matching requests fail
 * with 500 or 503, so integrations can test their retries against the sandbox. A fault fires
 * after authentication and the idempotency check but before any write, which is exactly the case
 * where a retry with the same Idempotency-Key must run again (a 5xx is never stored).
 */
const FaultRule = z
  .strictObject({
    method: z.enum(['GET', 'POST', 'PATCH', 'DELETE', '*']).default('*'),
    path_prefix: z
      .string()
      .max(2000)
      .regex(/^\/v1\//, { message: 'Expected a path under /v1/.' })
      .describe('A path under /v1/, e.g. /v1/leads; a query may follow'),
    status: z.union([z.literal(500), z.literal(503)]).default(503),
    count: z.number().int().min(1).max(10_000).default(1),
  })
  .meta({ id: 'FaultRule' });
type FaultRule = z.output<typeof FaultRule>;

export function registerFaults(fastify: FastifyInstance): void {
  const rules: FaultRule[] = [];
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.addHook('preHandler', async (request) => {
    if (rules.length === 0) return;
    const rule = rules.find((r) => (r.method === '*' || r.method === request.method) && routedTarget(request).startsWith(r.path_prefix));
    if (!rule) return;
    if (--rule.count === 0) rules.splice(rules.indexOf(rule), 1);
    throw rule.status === 503
      ? new ApiError('unavailable', 'The sandbox injected this failure (POST /_sandbox/faults). Retry.', { headers: { 'retry-after': '1' } })
      : new ApiError('internal_error', 'The sandbox injected this failure (POST /_sandbox/faults). Retry.');
  });

  const base = { tags: ['Sandbox'], security: BEARER };
  const Rules = z.object({ data: z.array(FaultRule) });
  app.post('/_sandbox/faults', {
    config: { scope: '*' },
    schema: {
      ...base,
      summary: 'Fail the next N matching requests with 500 or 503',
      body: FaultRule,
      response: { 201: Rules, ...errorResponses('validation_failed') },
    },
    handler: async (req, reply) => {
      rules.push(req.body);
      return reply.code(201).send({ data: rules });
    },
  });
  app.get('/_sandbox/faults', {
    config: { scope: '*' },
    schema: { ...base, summary: 'Faults still armed', response: { 200: Rules, ...errorResponses() } },
    handler: async () => ({ data: rules }),
  });
  app.delete('/_sandbox/faults', {
    config: { scope: '*' },
    schema: { ...base, summary: 'Disarm every fault', response: { 200: Rules, ...errorResponses() } },
    handler: async () => {
      rules.length = 0;
      return { data: rules };
    },
  });
}
