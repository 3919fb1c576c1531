import { request } from 'undici';
import { parseSse, type SseMessage } from '../../src/client/sse.js';

/** An open Server-Sent Events response and the messages it has delivered so far. */
export async function openSseStream(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await request(url, { headers, signal: controller.signal });
  const messages: SseMessage[] = [];
  const reading = (async () => {
    try {
      for await (const m of parseSse(response.body)) messages.push(m);
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: response.statusCode,
    headers: response.headers,
    messages,
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
