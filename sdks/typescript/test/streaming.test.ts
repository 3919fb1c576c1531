import { describe, expect, it } from 'vitest';
import { serverSentEvents, type ServerSentEvent } from '../src/index.js';

/** The Server-Sent Events reader under the streamed methods, fed a body in awkward pieces. */
async function parse(chunks: string[]): Promise<ServerSentEvent[]> {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const events: ServerSentEvent[] = [];
  for await (const event of serverSentEvents(body)) events.push(event);
  return events;
}

describe('serverSentEvents', () => {
  it('joins data lines, skips comments, drops one space after the colon, and accepts CRLF split across pieces', async () => {
    const events = await parse(['\uFEFF: heartbeat\r\nevent: text\r\ndata: {"a":', '1}\r', '\ndata:  two\r\n\r\n', 'id: 7\ndata\rdata: x\r\r']);
    expect(events).toEqual([
      { event: 'text', data: '{"a":1}\n two', id: undefined },
      { event: 'message', data: '\nx', id: '7' },
    ]);
  });

  it('dispatches nothing for an event without data, nor for one cut off before its blank line', async () => {
    expect(await parse(['id: 1\n\nevent: done\n\n', 'data: cut off'])).toEqual([]);
  });
});
