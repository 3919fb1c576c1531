// A turn's Server-Sent Events, read from a POST's body as they arrive (fetch and a stream reader:
// EventSource can only GET). The request carries the dashboard's session (apiStream in api.ts).
import type { AssistantStreamEvent } from '../../../src/schemas/assistant.js';
import { apiStream } from '../api.js';

/**
 * The whole events in `buffer` (`event:` and `data:` lines, a blank line after each), and what is
 * left of a next one still arriving. Comments (`: …`) and unknown fields are skipped.
 */
export function parseEvents(buffer: string): { events: AssistantStreamEvent[]; rest: string } {
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: AssistantStreamEvent[] = [];
  for (const block of blocks) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    if (data) events.push(JSON.parse(data) as AssistantStreamEvent);
  }
  return { events, rest };
}

/**
 * Sends the request and hands each event to `onEvent` as it arrives. Resolves when the stream
 * ends; throws the API's problem (ApiProblem) when it answered one instead of a stream, and
 * whatever broke the connection (a TypeError, or the AbortError of `signal`).
 */
export async function streamTurn(path: string, body: unknown, signal: AbortSignal, onEvent: (event: AssistantStreamEvent) => void): Promise<void> {
  const response = await apiStream('POST', path, body, signal);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const parsed = parseEvents(buffer + value);
    buffer = parsed.rest;
    for (const event of parsed.events) onEvent(event);
  }
  for (const event of parseEvents(`${buffer}\n\n`).events) onEvent(event);
}
