import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Account } from '../../accounts/account.js';
import { Usage, UsageQuery, UsageStreamQuery } from '../../schemas/usage.js';
import type { RequestSource } from '../../schemas/request-source.js';
import type { Principal } from '../../services/api-keys.js';
import { usageReport } from '../../accounts/usage-report.js';
import { BEARER, errorResponses } from '../schema-docs.js';
import { sseStreams } from '../sse.js';

/** GET /v1/usage and its live twin, GET /v1/usage/stream (Server-Sent Events, one report a second). */
export function usageRoutes(fastify: FastifyInstance, current: () => Account): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['Usage'], security: BEARER };
  const streams = sseStreams(fastify);

  const report = (principal: Principal, forDay?: string, source?: RequestSource) => usageReport(current(), principal, forDay, source);

  app.get('/v1/usage', {
    config: { scope: 'usage:read' },
    schema: {
      ...base,
      summary: 'Requests by key, endpoint and status; quota; requests per second (last 5 min)',
      querystring: UsageQuery,
      response: { 200: Usage, ...errorResponses('invalid_request') },
    },
    handler: async (req) => report(req.principal!, req.query.day, req.query.source),
  });

  app.get('/v1/usage/stream', {
    config: { scope: 'usage:read' },
    schema: {
      ...base,
      summary: 'The usage report, live, as Server-Sent Events (`event: usage`, once a second)',
      querystring: UsageStreamQuery,
      response: { 200: { description: 'An event stream', content: { 'text/event-stream': { schema: Usage } } }, ...errorResponses('invalid_request') },
    },
    handler: async (req, reply) => {
      const stream = streams.open(req, reply, current().ctx);
      const source = req.query.source;
      const message = () => `event: usage\ndata: ${JSON.stringify(report(req.principal!, undefined, source))}\n\n`;
      stream.write(message());
      stream.every(1000, message);
    },
  });
}
