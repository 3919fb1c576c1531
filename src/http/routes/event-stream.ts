import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Event, EventStreamHeaders, EventStreamQuery } from '../../schemas/event.js';
import type { Ctx } from '../../services/context.js';
import { latestEventId } from '../../services/event-log.js';
import { BEARER, errorResponses } from '../schema-docs.js';
import { followEvents, sseStreams } from '../sse.js';
import { pinContext } from '../../accounts/current.js';

/**
 * GET /v1/events/stream: the event log as Server-Sent Events (`id:` event id, `event:` type,
 * `data:` the event JSON), resumable after Last-Event-ID or ?after=. Events are read from the
 * table by id, never from memory, so a stream that resumes sees exactly what was committed.
 */
export function eventStreamRoutes(fastify: FastifyInstance, ctx: Ctx): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const streams = sseStreams(fastify);

  app.get('/v1/events/stream', {
    config: { scope: 'events:read' },
    schema: {
      tags: ['Events'],
      security: BEARER,
      summary: 'Follow events live, as Server-Sent Events',
      description:
        'Each event is `id: <event id>`, `event: <type>`, `data: <event JSON>`. Resumes after the `Last-Event-ID` header or `?after=evt_…` ' +
        '(`evt_` for from the beginning). Opened without a position it starts at the newest event, and says so first with an id-only ' +
        'message (`id: <newest id>`), which sets the client’s Last-Event-ID without dispatching anything. A `: heartbeat` comment every 15 s.',
      querystring: EventStreamQuery,
      headers: EventStreamHeaders,
      response: { 200: { description: 'An event stream', content: { 'text/event-stream': { schema: Event } } }, ...errorResponses('invalid_request') },
    },
    handler: async (req, reply) => {
      const types = req.query.type ? new Set(req.query.type.split(',')) : undefined;
      const explicit = req.query.after ?? req.headers['last-event-id'];
      const position = explicit ?? latestEventId(ctx.db);
      const stream = streams.open(req, reply, ctx);
      if (explicit === undefined) stream.write(`id: ${position}\n\n`);
      followEvents(pinContext(ctx), stream, position, { types });
    },
  });
}
