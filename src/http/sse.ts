import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../services/context.js';
import { eventJson, eventsAfter } from '../services/event-log.js';
import { onOutbox } from '../services/outbox-signal.js';

const HEARTBEAT_MS = 15_000;
/** The outbox signal wakes event followers at once; this poll is only a safety net. */
const SAFETY_POLL_MS = 1_000;
const EVENT_BATCH = 500;

/** One open Server-Sent Events response. */
export interface SseStream {
  /** Writes messages; false when the socket's buffer is full (then wait for `onDrain`). */
  write(text: string): boolean;
  onDrain(fn: () => void): void;
  /** Runs when the client goes away or the server closes the stream. */
  onClose(fn: () => void): void;
  readonly closed: boolean;
}

/**
 * Opens SSE responses and ends them all when the server closes: an open stream would otherwise
 * keep `app.close()` waiting. One per route module, created at registration.
 */
export function sseStreams(fastify: FastifyInstance): { open(req: FastifyRequest, reply: FastifyReply): SseStream } {
  const open = new Set<() => void>();
  fastify.addHook('preClose', async () => {
    for (const end of open) end();
  });
  return {
    open(req, reply) {
      reply.hijack();
      const raw = reply.raw;
      // Hijacked: Fastify no longer sends the headers hooks set (X-Request-Id, RateLimit fields, CSP).
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': String(req.id),
      });
      const cleanups: (() => void)[] = [];
      const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), HEARTBEAT_MS);
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        open.delete(end);
        for (const fn of cleanups) fn();
      };
      const end = () => {
        close();
        raw.end();
      };
      open.add(end);
      req.raw.once('close', close);
      return {
        write: (text) => raw.write(text),
        onDrain: (fn) => raw.once('drain', fn),
        onClose: (fn) => cleanups.push(fn),
        get closed() {
          return closed || raw.destroyed;
        },
      };
    },
  };
}

/**
 * Follows the event log from `position` onto a stream: `id: <event id>`, `event: <name>`, `data:
 * <event JSON>` per event (`name` is the event's type unless one is given, for streams that
 * multiplex). Events are read from the table by id, never from memory, so a stream that resumes
 * sees exactly what was committed; a slow reader holds a position, not a growing pile of events.
 */
export function followEvents(ctx: Ctx, stream: SseStream, position: string, opts: { types?: Set<string> | undefined; name?: string } = {}): void {
  let waitingForDrain = false;
  const flush = () => {
    if (waitingForDrain || stream.closed) return;
    for (;;) {
      const rows = eventsAfter(ctx, position, EVENT_BATCH);
      let text = '';
      for (const row of rows) {
        position = String(row.id);
        if (opts.types && !opts.types.has(String(row.type))) continue;
        text += `id: ${row.id}\nevent: ${opts.name ?? row.type}\ndata: ${eventJson(row)}\n\n`;
      }
      if (text && !stream.write(text)) {
        waitingForDrain = true;
        stream.onDrain(() => {
          waitingForDrain = false;
          flush();
        });
        return;
      }
      if (rows.length < EVENT_BATCH) return;
    }
  };
  const unsubscribe = onOutbox(ctx.db, flush);
  const poll = setInterval(flush, SAFETY_POLL_MS);
  stream.onClose(() => {
    unsubscribe();
    clearInterval(poll);
  });
  flush();
}
