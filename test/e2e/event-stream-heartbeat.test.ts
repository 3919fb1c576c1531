import { request } from 'undici';
import { expect, it } from 'vitest';
import { useApp, type RunningApp } from '../helpers/app.js';

// docs/reference/events.md#reading-events: the event stream sends a comment heartbeat every 15 s, which `crm listen` uses to tell
// a dead connection from a quiet one. A file of its own: it waits for the real interval.
let sandbox: RunningApp;
useApp({}, (s) => {
  sandbox = s;
});

it('an idle event stream gets a `: heartbeat` comment after 15 s, and nothing before it', async () => {
  const controller = new AbortController();
  const opened = Date.now();
  const response = await request(`${sandbox.baseUrl}/v1/events/stream`, {
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
    signal: controller.signal,
  });
  expect(response.statusCode).toBe(200);
  const chunks: { at: number; text: string }[] = [];
  try {
    for await (const chunk of response.body) {
      chunks.push({ at: Date.now() - opened, text: String(chunk) });
      if (
        chunks
          .map((c) => c.text)
          .join('')
          .includes(': heartbeat')
      )
        break;
    }
  } finally {
    controller.abort();
  }
  const text = chunks.map((c) => c.text).join('');
  // No events in a fresh sandbox: the opening position message, then the heartbeat alone.
  expect(text.endsWith('\n\n: heartbeat\n\n'), JSON.stringify(text)).toBe(true);
  expect(text.split('\n\n').filter((m) => m.startsWith(':'))).toEqual([': heartbeat']);
  const heartbeatAt = chunks.at(-1)!.at;
  expect(heartbeatAt).toBeGreaterThanOrEqual(14_900);
  // An upper bound only against a stream that never beats; a loaded CI machine may run late.
  expect(heartbeatAt).toBeLessThan(30_000);
}, 45_000);
