import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams } from '../../schemas/common.js';
import { RequestLogDetail, RequestLogList, RequestLogListQuery } from '../../schemas/request-log.js';
import type { Ctx } from '../../services/context.js';
import { getRequestLog, listRequestLogs, type RequestLogWriter } from '../../services/request-log.js';
import { BEARER, errorResponses } from '../schema-docs.js';

/** The request log (docs/dashboard.md#the-request-log): the last 10,000 /v1 requests, the first place to look when an integration fails. */
export function requestLogRoutes(fastify: FastifyInstance, ctx: Ctx, currentWriter: () => RequestLogWriter): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['Request logs'], security: BEARER };
  app.get('/v1/request_logs', {
    config: { scope: 'logs:read' },
    schema: {
      ...base,
      summary: 'List logged requests, oldest first or newest first (the last 10,000 are kept)',
      querystring: RequestLogListQuery,
      response: { 200: RequestLogList, ...errorResponses('invalid_request', 'invalid_cursor') },
    },
    // What is still waiting to be written is written first: a request is in the log once it was answered.
    handler: async (req) => (currentWriter().flush(), listRequestLogs(ctx, req.query)),
  });
  app.get('/v1/request_logs/:id', {
    config: { scope: 'logs:read' },
    schema: {
      ...base,
      summary: 'Get a logged request with its bodies (secrets redacted)',
      params: IdParams,
      response: { 200: RequestLogDetail, ...errorResponses('not_found') },
    },
    handler: async (req) => (currentWriter().flush(), getRequestLog(ctx, req.params.id)),
  });
}
