/**
 * Server-Sent Events as typed events: what a streamed method (`crm.assistant.ask`) returns. The
 * request is sent when iteration starts, so an error answer (problem+json: 503, 502, 404, …) throws
 * its CrmError from the `for await` before any event. Each event is the JSON of its `data:` lines
 * (its type in it, as the `event:` line repeats);
 * an `error` event is an event like the others (the stream ends after it), not a throw. Leaving the
 * loop early (break, return, a throw) closes the HTTP response. The client's `timeout` is how long
 * to wait for the answer and then between two pieces of it, not for the whole stream.
 */
import { ConnectionError, CrmError } from './errors.js';
import type { LastResponse } from './core.js';

/** One Server-Sent Event as sent: `event:` (default "message"), its joined `data:` lines, `id:`. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id: string | undefined;
}

/** What Core.open gives a stream: the 2xx response, its body not read yet. */
export interface OpenedStream {
  body: ReadableStream<Uint8Array>;
  lastResponse: LastResponse;
  /** Call on each piece received: restarts the wait for the next one. */
  touch(): void;
  /** Stops the HTTP response (and its timer). */
  close(): void;
}

export class EventStream<T> implements AsyncIterable<T> {
  /** The HTTP response, once the stream is open. */
  lastResponse: LastResponse | undefined;
  private started = false;

  constructor(private readonly open: () => Promise<OpenedStream>) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    // Each iteration would send the request again (ask the question twice): refused.
    if (this.started) throw new CrmError('This stream was read already: call the method again for a new one.');
    this.started = true;
    const opened = await this.open();
    this.lastResponse = opened.lastResponse;
    try {
      for await (const message of readEvents(opened)) yield toEvent<T>(message);
    } finally {
      opened.close();
    }
  }
}

/** The events of the body; a read that fails (the timeout, a broken connection) is a ConnectionError. */
async function* readEvents(opened: OpenedStream): AsyncGenerator<ServerSentEvent> {
  const events = serverSentEvents(opened.body, opened.touch);
  for (;;) {
    let next: IteratorResult<ServerSentEvent>;
    try {
      next = await events.next();
    } catch (cause) {
      throw new ConnectionError(`The stream stopped: ${(cause as Error).message}`, { cause });
    }
    if (next.done) return;
    yield next.value;
  }
}

function toEvent<T>(message: ServerSentEvent): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.data);
  } catch (cause) {
    throw new CrmError(`The server sent an event that is not JSON (event: ${message.event}): ${message.data.slice(0, 200)}`, { cause });
  }
  return parsed as T;
}

/**
 * Parses an event stream as the HTML standard says: lines end in CRLF, LF or CR; a blank line
 * dispatches the event; `:` starts a comment (a heartbeat); `data:` lines join with a line feed;
 * one space after the colon is dropped; an event cut off before its blank line is not dispatched.
 */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>, onChunk: () => void = () => {}): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let first = true;
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (!done) onChunk();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (first && buffer.length > 0) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
        first = false;
      }
      for (;;) {
        const end = buffer.search(/[\r\n]/);
        // A CR last in the buffer may be the first half of a CRLF: wait for the next piece.
        if (end < 0 || (!done && buffer[end] === '\r' && end === buffer.length - 1)) break;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer[end] === '\r' && buffer[end + 1] === '\n' ? 2 : 1));
        if (line === '') {
          // No data (an id-only message, a lone event: line) dispatches nothing.
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let text = colon < 0 ? '' : line.slice(colon + 1);
        if (text.startsWith(' ')) text = text.slice(1);
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
        else if (field === 'id' && !text.includes('\0')) id = text;
      }
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
