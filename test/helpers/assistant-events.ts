import type { AssistantStreamEvent } from '../../src/schemas/assistant.js';

/**
 * The events of an assistant turn, read from a Server-Sent Events body (`event:` the type,
 * `data:` its JSON): what a client of POST /v1/assistant/messages receives, in order.
 */
/** A turn's event, as the API's schema types it (src/schemas/assistant.ts). */
export type AssistantEvent = AssistantStreamEvent;

export function assistantEvents(body: string): AssistantEvent[] {
  const events: AssistantEvent[] = [];
  for (const block of body.split('\n\n')) {
    const lines = block.split('\n');
    const type = lines.find((l) => l.startsWith('event: '))?.slice(7);
    const data = lines
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6))
      .join('\n');
    if (!type || !data) continue; // comments (heartbeats) and empty blocks
    const event = JSON.parse(data) as AssistantEvent;
    if (event.type !== type) throw new Error(`event: ${type} carries data of type ${event.type}`);
    events.push(event);
  }
  return events;
}
