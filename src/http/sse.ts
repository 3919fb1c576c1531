import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../services/context.js';
import { eventJson, eventsAfter } from '../services/event-log.js';
import { onOutbox } from '../services/outbox-signal.js';
import { credentialCheck } from './credential.js';
import { askedMethod } from './head-as-get.js';
import { takeStreamSlot } from './stream-slots.js';

const HEARTBEAT_MS = 15_000;
/** The outbox signal wakes event followers at once; this poll is only a safety net. */
const SAFETY_POLL_MS = 1_000;
const EVENT_BATCH = 500;

/**
 * The last thing a stream sends when its credential no longer stands, before it ends: a comment,
 * which every SSE parser skips (an `event:` would reach /v1 clients as an event of that type).
 */
const CREDENTIAL_ENDED = ': closed: the credential was revoked or has expired, or the session ended\n\n';

/** One open Server-Sent Events response. */
export interface SseStream {
  /**
   * True while the stream is open and the credential it was opened with still stands. Once the
   * credential does not, ends the stream (saying why in a comment) and answers false from then on.
   */
  stillAuthorized(): boolean;
  /**
   * Writes messages if stillAuthorized(); false when the stream has ended (then stop), or when
   * the socket's buffer is full (then wait for `onDrain`).
   */
  write(text: string): boolean;
  /** Sends `message()` every `ms` until the stream ends, each made only once the credential was checked. */
  every(ms: number, message: () => string): void;
  onDrain(fn: () => void): void;
  /** Ends the stream (a finished answer); the client sees the response end. */
  end(): void;
  /** Runs when the client goes away or the server closes the stream. */
  onClose(fn: () => void): void;
  readonly closed: boolean;
}

/**
 * Opens SSE responses and ends them all when the server closes: an open stream would otherwise
 * keep `app.close()` waiting. One per route module, created at registration.
 *
 * A stream lives only as long as the credential it was opened with (`req.credential`, on the
 * account of `ctx`). It is checked again, as a new request with it would be, before anything is
 * read for the stream or written to it, and at least at every heartbeat; a stream whose
 * credential was revoked, has expired or whose session ended ends there, with nothing more sent.
 * A credential and an account hold only so many streams at once (stream-slots.ts): past that,
 * `open` throws 429 and the route answers it as any error.
 */
export function sseStreams(fastify: FastifyInstance): { open(req: FastifyRequest, reply: FastifyReply, ctx: Ctx): SseStream } {
  const open = new Set<() => void>();
  fastify.addHook('preClose', async () => {
    for (const end of open) end();
  });
  return {
    open(req, reply, ctx) {
      if (!req.credential || !req.principal) throw new Error(`${req.routeOptions.url}: a stream needs the credential it was opened with`);
      const credentialStands = credentialCheck(ctx, req.credential);
      const releaseSlot = takeStreamSlot(ctx.db, req.principal.subject); // 429 past a cap, before anything is sent
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
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        releaseSlot();
        open.delete(end);
        for (const fn of cleanups) fn();
      };
      const end = (last?: string) => {
        close();
        raw.end(last);
      };
      const stillAuthorized = (): boolean => {
        if (closed || raw.destroyed) return false;
        if (credentialStands()) return true;
        end(CREDENTIAL_ENDED);
        return false;
      };
      const write = (text: string): boolean => stillAuthorized() && raw.write(text);
      // Both run their cleanup at once on a stream that has already ended (e.g. at its first write).
      const onClose = (fn: () => void): void => {
        if (closed) fn();
        else cleanups.push(fn);
      };
      const every = (ms: number, message: () => string): void => {
        const timer = setInterval(() => stillAuthorized() && raw.write(message()), ms);
        onClose(() => clearInterval(timer));
      };
      every(HEARTBEAT_MS, () => ': heartbeat\n\n');
      open.add(end);
      req.raw.once('close', close);
      // A HEAD gets the stream's headers and no content (RFC 9110 §9.3.2): it ends here, and the
      // route finds it closed. (Without this, a HEAD held its connection open, sending nothing.)
      if (askedMethod(req.raw) === 'HEAD') end();
      return {
        stillAuthorized,
        write,
        every,
        onDrain: (fn) => raw.once('drain', fn),
        end: () => end(),
        onClose,
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
    // Checked before reading, too: nothing is read for a credential that has ended (nor from the
    // database of a deleted account), and an idle stream ends within a safety poll of it.
    if (waitingForDrain || !stream.stillAuthorized()) return;
    for (;;) {
      const rows = eventsAfter(ctx, position, EVENT_BATCH);
      let text = '';
      for (const row of rows) {
        position = String(row.id);
        if (opts.types && !opts.types.has(String(row.type))) continue;
        text += `id: ${row.id}\nevent: ${opts.name ?? row.type}\ndata: ${eventJson(row)}\n\n`;
      }
      if (text && !stream.write(text)) {
        if (stream.closed) return;
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
