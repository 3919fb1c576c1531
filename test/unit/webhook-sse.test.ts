import { describe, expect, it } from 'vitest';
import { parseSse, type SseMessage } from '../../src/client/sse.js';

async function parse(chunks: string[]): Promise<SseMessage[]> {
  const out: SseMessage[] = [];
  for await (const m of parseSse(
    (async function* () {
      for (const c of chunks) yield Buffer.from(c);
    })(),
  ))
    out.push(m);
  return out;
}

describe('the SSE parser crm listen reads the event stream with', () => {
  it('reads id, event and data, skipping comments (heartbeats)', async () => {
    const messages = await parse([': heartbeat\n\nid: evt_1\nevent: deal.won\ndata: {"a":1}\n\n']);
    expect(messages).toEqual([{ id: 'evt_1', event: 'deal.won', data: '{"a":1}', hasData: true }]);
  });

  it('hands out id-only messages (the stream’s starting position)', async () => {
    expect(await parse(['id: evt_0\n\n'])).toEqual([{ id: 'evt_0', event: 'message', data: '', hasData: false }]);
  });

  it('joins data lines, accepts CRLF and CR, and survives chunks split anywhere (even inside CRLF and UTF-8)', async () => {
    const text = 'id: evt_2\r\ndata: line one\r\ndata: zwölf €\r\r\nid: evt_3\rdata: x\r\r';
    const bytes = Buffer.from(text);
    const whole = await parse([text]);
    expect(whole).toEqual([
      { id: 'evt_2', event: 'message', data: 'line one\nzwölf €', hasData: true },
      { id: 'evt_3', event: 'message', data: 'x', hasData: true },
    ]);
    // Byte by byte, as Buffers (so UTF-8 sequences are split too).
    const out: SseMessage[] = [];
    for await (const m of parseSse(
      (async function* () {
        for (const b of bytes) yield Buffer.from([b]);
      })(),
    ))
      out.push(m);
    expect(out).toEqual(whole);
  });

  it('drops a message cut off before its blank line', async () => {
    expect(await parse(['id: evt_4\ndata: partial\n'])).toEqual([]);
  });
});
