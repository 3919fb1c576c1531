import type { CrmClient } from '../../../client/client.js';
import type { Event } from '../../../schemas/event.js';
import type { WebhookDelivery } from '../../../schemas/webhook.js';
import { withClient, type GlobalOptions } from '../../api.js';
import { checkForwardUrl, EventForwarder } from '../listen/forward.js';
import { loadListenState } from '../listen/listen-state.js';
import { CliError, dim, jsonText, printJson, table } from '../../output.js';

/** `crm events list|get|resend|replay`: the event log of any server with this API (docs/reference/events.md#reading-events). */
export interface ForwardOptions {
  forwardTo?: string;
  state: string;
}

async function collect(client: CrmClient, query: Record<string, string | number | undefined>, max: number): Promise<{ events: Event[]; more: boolean }> {
  const events: Event[] = [];
  for await (const page of client.pages<Event>('/v1/events', { ...query, limit: Math.min(1000, max + 1) })) {
    events.push(...page.data);
    if (events.length > max) return { events: events.slice(0, max), more: true };
  }
  return { events, more: false };
}

export async function listEventsCommand(options: GlobalOptions & { type?: string; since?: string; limit: number }): Promise<void> {
  const { events, more } = await withClient(options, (c) => collect(c, { type: options.type, created_after: options.since }, options.limit));
  if (options.json) return printJson({ data: events, has_more: more });
  process.stdout.write(
    table(
      ['ID', 'TYPE', 'OBJECT', 'CREATED'],
      events.map((e) => [e.id, e.type, String(e.data.object.id ?? ''), e.created_at]),
    ),
  );
  if (more) process.stdout.write(dim(`(more than ${options.limit}; narrow with --since or --type, or raise --limit)\n`));
}

export async function getEventCommand(options: GlobalOptions, id: string): Promise<void> {
  // JSON either way, indented for people: jsonText escapes what a terminal would act on, so the
  // strings are taken as sent (json: true), not escaped a second time.
  const event = await withClient({ ...options, json: true }, (c) => c.get<Event>(`/v1/events/${encodeURIComponent(id)}`));
  process.stdout.write(`${jsonText(event, options.json ? undefined : 2)}\n`);
}

/** Without --forward-to, asks the server to deliver again to its webhook endpoints; with it, POSTs here, signed with the listen secret. */
export async function resendCommand(options: GlobalOptions & ForwardOptions & { endpoint?: string }, id: string): Promise<void> {
  await withClient(options, async (client) => {
    if (options.forwardTo) {
      const event = await client.get<Event>(`/v1/events/${encodeURIComponent(id)}`);
      const failed = await forwardAll(options, [event]);
      if (failed) throw new CliError(`The forward of ${id} failed.`);
      return;
    }
    const result = await client.post<{ event_id: string; deliveries: WebhookDelivery[] }>(
      `/v1/events/${encodeURIComponent(id)}/resend`,
      options.endpoint ? { endpoint_id: options.endpoint } : {},
    );
    if (options.json) return printJson(result);
    if (result.deliveries.length === 0) process.stdout.write(`No enabled webhook endpoint takes ${id}'s type; nothing queued.\n`);
    for (const d of result.deliveries) process.stdout.write(`Queued ${d.event_id} for ${d.endpoint_id} (${d.id})\n`);
  });
}

/** Every event since a time (optionally of some types), in order: resent to the endpoints, or forwarded here. */
export async function replayCommand(options: GlobalOptions & ForwardOptions & { since: string; type?: string; endpoint?: string }): Promise<void> {
  await withClient(options, async (client) => {
    const { events } = await collect(client, { type: options.type, created_after: options.since }, Number.MAX_SAFE_INTEGER);
    if (options.forwardTo) {
      const failed = await forwardAll(options, events);
      if (!options.json) process.stdout.write(dim(`${events.length - failed} of ${events.length} event(s) forwarded.\n`));
      if (failed) throw new CliError(`${failed} forward(s) failed.`);
      return;
    }
    let queued = 0;
    for (const event of events) {
      const result = await client.post<{ deliveries: WebhookDelivery[] }>(
        `/v1/events/${event.id}/resend`,
        options.endpoint ? { endpoint_id: options.endpoint } : {},
      );
      queued += result.deliveries.length;
    }
    if (options.json) printJson({ events: events.length, deliveries_queued: queued });
    else process.stdout.write(`${events.length} event(s) since ${options.since}: ${queued} deliveries queued.\n`);
  });
}

/** Forwards in order; returns how many failed after their retries. */
async function forwardAll(options: GlobalOptions & ForwardOptions, events: Event[]): Promise<number> {
  const url = checkForwardUrl(options.forwardTo!);
  const { secret } = loadListenState(options.state, options.baseUrl);
  const forwarder = new EventForwarder({ url, secret, retries: 2, json: options.json });
  let failed = 0;
  try {
    for (const event of events) {
      const outcome = await forwarder.forward({ id: event.id, type: event.type, body: JSON.stringify(event) });
      if (!outcome.ok) failed++;
    }
  } finally {
    await forwarder.close();
  }
  return failed;
}
