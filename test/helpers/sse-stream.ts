import { request } from 'undici';
import { parseSse, type SseMessage } from '../../src/client/sse.js';

/**
 * An open Server-Sent Events response and the messages it has delivered so far; `text` is all
 * it sent (comments too), and `ended` turns true when the server ends the response.
 */
export async function openSseStream(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await request(url, { headers, signal: controller.signal });
  const messages: SseMessage[] = [];
  let text = '';
  let ended = false;
  async function* recorded(body: AsyncIterable<Buffer>) {
    for await (const chunk of body) {
      text += chunk.toString('utf8');
      yield chunk;
    }
  }
  const reading = (async () => {
    try {
      for await (const m of parseSse(recorded(response.body))) messages.push(m);
      ended = true;
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: response.statusCode,
    headers: response.headers,
    messages,
    get text() {
      return text;
    },
    get ended() {
      return ended;
    },
    async until(what: string, done: () => boolean) {
      const deadline = Date.now() + 10_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`stream: timed out waiting for ${what}; got ${JSON.stringify(messages)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}
