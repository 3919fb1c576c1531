import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Event, EventStreamHeaders, EventStreamQuery } from '../../schemas/event.js';
import type { Ctx } from '../../services/context.js';
import { eventJson, eventsAfter, latestEventId } from '../../services/event-log.js';
import { onOutbox } from '../../services/outbox-signal.js';
import { BEARER, errorResponses } from '../schema-docs.js';

const HEARTBEAT_MS = 15_000;
/** The outbox signal wakes streams at once; this poll is only a safety net. */
const SAFETY_POLL_MS = 1_000;
const BATCH = 500;

/**
 * GET /v1/events/stream: the event log as Server-Sent Events (`id:` event id, `event:` type,
 * `data:` the event JSON), resumable after Last-Event-ID or ?after=. Events are read from the
 * table by id, never from memory, so a stream that resumes sees exactly what was committed.
 */
export function eventStreamRoutes(fastify: FastifyInstance, ctx: Ctx): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const streams = new Set<{ end(): void }>();

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
      let position = explicit ?? latestEventId(ctx.db);

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': String(req.id),
      });
      if (explicit === undefined) raw.write(`id: ${position}\n\n`);

      // Writes what is new since `position`; pauses while the socket's buffer is full (a slow
      // reader holds a position, not a growing pile of events in memory).
      let waitingForDrain = false;
      const flush = () => {
        if (waitingForDrain || raw.destroyed) return;
        for (;;) {
          const rows = eventsAfter(ctx, position, BATCH);
          let text = '';
          for (const row of rows) {
            position = String(row.id);
            if (types && !types.has(String(row.type))) continue;
            text += `id: ${row.id}\nevent: ${row.type}\ndata: ${eventJson(row)}\n\n`;
          }
          if (text && !raw.write(text)) {
            waitingForDrain = true;
            raw.once('drain', () => {
              waitingForDrain = false;
              flush();
            });
            return;
          }
          if (rows.length < BATCH) return;
        }
      };

      const unsubscribe = onOutbox(ctx.db, flush);
      const poll = setInterval(flush, SAFETY_POLL_MS);
      const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), HEARTBEAT_MS);
      const stop = () => {
        unsubscribe();
        clearInterval(poll);
        clearInterval(heartbeat);
        streams.delete(stream);
      };
      const stream = {
        end: () => {
          stop();
          raw.end();
        },
      };
      streams.add(stream);
      req.raw.once('close', stop);
      flush();
    },
  });

  // Open streams would keep the server from closing: end them first.
  fastify.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
  });
}
