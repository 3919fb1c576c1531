import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams } from '../../schemas/common.js';
import { Event, EventList, EventListQuery } from '../../schemas/event.js';
import { EventResend, EventResendResult } from '../../schemas/webhook.js';
import type { Ctx } from '../../services/context.js';
import { getEvent, listEvents } from '../../services/event-log.js';
import { resendEvent } from '../../services/webhook-deliveries.js';
import { respond } from '../plugins/idempotency.js';
import { BEARER, errorResponses } from '../schema-docs.js';
import { sendJsonBody } from './crud.js';

/** The event log (docs/reference/events.md#reading-events): list, one event, and resend to webhook endpoints. The stream is in event-stream.ts. */
export function eventRoutes(fastify: FastifyInstance, ctx: Ctx): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['Events'], security: BEARER };

  app.get('/v1/events', {
    config: { scope: 'events:read' },
    schema: {
      ...base,
      summary: 'List events of the last 30 days, oldest first (or newest first)',
      querystring: EventListQuery,
      response: { 200: EventList, ...errorResponses('invalid_request', 'invalid_cursor') },
    },
    handler: async (req, reply) => sendJsonBody(reply, listEvents(ctx, req.query)),
  });

  app.get('/v1/events/:id', {
    config: { scope: 'events:read' },
    schema: { ...base, summary: 'Get an event (kept 30 days)', params: IdParams, response: { 200: Event, ...errorResponses('not_found') } },
    handler: async (req) => getEvent(ctx, req.params.id),
  });

  app.post('/v1/events/:id/resend', {
    config: { scope: 'webhooks:write' },
    schema: {
      ...base,
      summary: 'Deliver an event again to webhook endpoints',
      description: 'To `endpoint_id`, or to every enabled endpoint that takes the type. Queued at once, with a new round of retries and the same webhook-id.',
      params: IdParams,
      body: EventResend.optional(),
      response: { 202: EventResendResult, ...errorResponses('not_found', 'conflict', 'validation_failed') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 202, () => resendEvent(ctx, req.params.id, req.body?.endpoint_id)),
  });
}
