import type { WebhookDelivery, WebhookEndpoint } from '../../../schemas/webhook.js';
import { withClient, type GlobalOptions } from '../../api.js';
import { bold, dim, printJson, table, yellow } from '../../output.js';

/** `crm webhooks create|list|update|delete|rotate-secret|deliveries|recover`. */
type WithSecret = WebhookEndpoint & { secret: string };
const path = (id: string) => `/v1/webhook_endpoints/${encodeURIComponent(id)}`;

function showSecret(endpoint: WithSecret, verb: string): void {
  process.stdout.write(
    `${bold(verb)} ${endpoint.id} → ${endpoint.url} (${endpoint.enabled_events.join(', ')})\n\n  ${endpoint.secret}\n\n` +
      yellow('This signing secret is shown once: store it where your receiver can read it.\n'),
  );
}

export async function createWebhook(options: GlobalOptions, input: { url: string; events: string[]; description?: string }): Promise<void> {
  const endpoint = await withClient(options, (c) =>
    c.post<WithSecret>('/v1/webhook_endpoints', {
      url: input.url,
      enabled_events: input.events,
      ...(input.description ? { description: input.description } : {}),
    }),
  );
  if (options.json) return printJson(endpoint);
  showSecret(endpoint, 'Created');
}

export async function listWebhooks(options: GlobalOptions): Promise<void> {
  const endpoints = await withClient(options, (c) => c.all<WebhookEndpoint>('/v1/webhook_endpoints', { limit: 100 }));
  if (options.json) return printJson({ data: endpoints });
  process.stdout.write(
    table(
      ['ID', 'URL', 'EVENTS', 'STATUS', 'DESCRIPTION'],
      endpoints.map((e) => [e.id, e.url, e.enabled_events.join(','), e.status, e.description]),
    ),
  );
}

export async function updateWebhook(
  options: GlobalOptions,
  id: string,
  input: { url?: string; events?: string[]; description?: string; enable?: boolean; disable?: boolean },
): Promise<void> {
  const body = {
    ...(input.url ? { url: input.url } : {}),
    ...(input.events ? { enabled_events: input.events } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.enable ? { status: 'enabled' } : input.disable ? { status: 'disabled' } : {}),
  };
  const endpoint = await withClient(options, (c) => c.request<WebhookEndpoint>('PATCH', path(id), { body }));
  if (options.json) return printJson(endpoint);
  process.stdout.write(`Updated ${endpoint.id}: ${endpoint.url} (${endpoint.enabled_events.join(', ')}), ${endpoint.status}\n`);
}

export async function deleteWebhook(options: GlobalOptions, id: string): Promise<void> {
  const result = await withClient(options, (c) => c.request<{ id: string }>('DELETE', path(id)));
  if (options.json) return printJson(result);
  process.stdout.write(`Deleted ${result.id} and its delivery history.\n`);
}

export async function rotateWebhookSecret(options: GlobalOptions, id: string, expireOld: boolean): Promise<void> {
  const endpoint = await withClient(options, (c) => c.post<WithSecret>(`${path(id)}/rotate_secret`, { expire_old: expireOld }));
  if (options.json) return printJson(endpoint);
  showSecret(endpoint, 'Rotated');
  if (endpoint.previous_secret_expires_at)
    process.stdout.write(dim(`The previous secret keeps signing beside it until ${endpoint.previous_secret_expires_at}.\n`));
  else process.stdout.write(dim('The previous secret no longer signs.\n'));
}

export async function listWebhookDeliveries(options: GlobalOptions, id: string, filter: { event?: string; status?: string; limit: number }): Promise<void> {
  const deliveries = await withClient(options, async (c) => {
    const all: WebhookDelivery[] = [];
    for await (const page of c.pages<WebhookDelivery>(`${path(id)}/deliveries`, {
      limit: Math.min(1000, filter.limit),
      event_id: filter.event,
      status: filter.status,
    })) {
      all.push(...page.data);
      if (all.length >= filter.limit) break;
    }
    return all.slice(0, filter.limit);
  });
  if (options.json) return printJson({ data: deliveries });
  process.stdout.write(
    table(
      ['ID', 'EVENT', 'TYPE', 'ATTEMPT', 'STATUS', 'CODE', 'MS', 'NEXT ATTEMPT', 'ERROR'],
      deliveries.map((d) => [d.id, d.event_id, d.event_type, d.attempt, d.status, d.status_code, d.duration_ms, d.next_attempt_at, d.error]),
    ),
  );
}

export async function recoverWebhook(options: GlobalOptions, id: string, since: string): Promise<void> {
  const result = await withClient(options, (c) => c.post<{ endpoint_id: string; requeued: number }>(`${path(id)}/recover`, { since }));
  if (options.json) return printJson(result);
  process.stdout.write(`Re-queued ${result.requeued} failed deliver${result.requeued === 1 ? 'y' : 'ies'} to ${result.endpoint_id} since ${since}.\n`);
}
