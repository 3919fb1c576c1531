import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RateLimiter } from '../../domain/rate-limit.js';
import { Usage, UsageQuery } from '../../schemas/usage.js';
import type { Principal } from '../../services/api-keys.js';
import { day, STATUS_CLASSES, totalsBy, type UsageMeter } from '../../services/usage.js';
import { BEARER, errorResponses } from '../schema-docs.js';

/** GET /v1/usage and its live twin, GET /v1/usage/stream (Server-Sent Events, one report a second). */
export function usageRoutes(fastify: FastifyInstance, meter: UsageMeter, limiter: RateLimiter): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['Usage'], security: BEARER };
  const streams = new Set<{ end(): void }>();

  const report = (principal: Principal, forDay?: string): Usage => {
    const rows = meter.rows(forDay);
    const series = meter.perSecond();
    const byClass = meter.perSecondByClass();
    const quota = limiter.policies.find((p) => p.name === 'daily');
    const used = quota ? limiter.used(principal.subject, 'daily') : null;
    const burst = limiter.policies.find((p) => p.name === 'burst');
    return {
      day: forDay ?? day(Date.now()),
      generated_at: new Date().toISOString(),
      totals: { requests: rows.reduce((n, r) => n + r.requests, 0) },
      by_key: totalsBy(rows, 'subject').map(({ key, requests }) => ({ key_id: key, requests })),
      by_endpoint: totalsBy(rows, 'endpoint').map(({ key, requests }) => ({ endpoint: key, requests })),
      by_status: totalsBy(rows, 'status').map(({ key, requests }) => ({ status: key, requests })),
      quota:
        quota && used
          ? { limit: quota.quota, used: used.used, remaining: Math.max(0, quota.quota - used.used), resets_at: new Date(used.resetsAt).toISOString() }
          : null,
      rate_limit: burst ? { limit: burst.quota, window_seconds: burst.windowSeconds } : null,
      requests_per_second: {
        window_seconds: series.length,
        average: Number((series.reduce((a, b) => a + b, 0) / series.length).toFixed(3)),
        series,
        // In the classes' order (Object.entries would put the integer-like key '429' first).
        by_class: STATUS_CLASSES.map((status_class) => ({ status_class, series: byClass[status_class] })),
      },
    };
  };

  app.get('/v1/usage', {
    config: { scope: 'usage:read' },
    schema: { ...base, summary: 'Requests by key, endpoint and status; quota; requests per second (last 5 min)', querystring: UsageQuery, response: { 200: Usage, ...errorResponses('invalid_request') } },
    handler: async (req) => report(req.principal!, req.query.day),
  });

  app.get('/v1/usage/stream', {
    config: { scope: 'usage:read' },
    schema: {
      ...base,
      summary: 'The usage report, live, as Server-Sent Events (`event: usage`, once a second)',
      response: { 200: { description: 'An event stream', content: { 'text/event-stream': { schema: Usage } } }, ...errorResponses() },
    },
    handler: async (req, reply) => {
      reply.hijack();
      const raw = reply.raw;
      // Hijacked: Fastify no longer sends the headers hooks set (X-Request-Id, RateLimit fields).
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-request-id': String(req.id),
      });
      const send = () => raw.write(`event: usage\ndata: ${JSON.stringify(report(req.principal!))}\n\n`);
      send();
      const timer = setInterval(send, 1000);
      const stream = { end: () => (clearInterval(timer), raw.end()) };
      streams.add(stream);
      req.raw.once('close', () => {
        clearInterval(timer);
        streams.delete(stream);
      });
    },
  });

  // Open streams would keep the server from closing: end them first.
  fastify.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
  });
}
