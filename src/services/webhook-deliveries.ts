import { ApiError, notFound } from '../errors.js';
import type { WebhookDelivery, WebhookDeliveryListQuery } from '../schemas/webhook.js';
import { listPage, type Condition } from '../store/list.js';
import { pausedUntil } from './webhook-pause.js';
import { eventsFailedForGood, insertDelivery, type DeliveryRow } from '../store/webhook-deliveries.js';
import { enabledEndpoints, findEndpoint } from '../store/webhook-endpoints.js';
import type { Row } from '../store/rows.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';
import { inTransaction } from './transactions.js';
import { getEvent, RETENTION_MS } from './event-log.js';
import { getWebhookEndpoint } from './webhook-endpoints.js';
import { signalOutbox } from './outbox-signal.js';

/**
 * Delivery attempts: the queue the worker drains and the log users read. Every path that asks
 * for a delivery (a new event, a resend, a recover) writes a `pending` attempt row here; the
 * worker settles it (src/webhooks/queue.ts).
 */
const deliveryFromRow = (row: Row): WebhookDelivery => row as unknown as WebhookDelivery;

export function insertPendingAttempt(ctx: Ctx, endpointId: string, event: { id: string; type: string }, attempt: number, dueAt: string): WebhookDelivery {
  const row: DeliveryRow = {
    id: ctx.ids.next('whd'),
    endpoint_id: endpointId,
    event_id: event.id,
    event_type: event.type,
    attempt,
    status: 'pending',
    status_code: null,
    duration_ms: null,
    error: null,
    next_attempt_at: dueAt,
    attempted_at: null,
    created_at: nowIso(ctx),
  };
  insertDelivery(ctx.db, row);
  return row as unknown as WebhookDelivery;
}

const subscribes = (enabledEvents: string, type: string): boolean => {
  const list = JSON.parse(enabledEvents) as string[];
  return list.includes('*') || list.includes(type);
};

/**
 * Fan-out, called by recordEvent inside the transaction that writes the events: one pending
 * attempt per enabled endpoint that takes the type. So an event and its deliveries commit
 * together — a crash can lose neither one without the other. An event already past the 30-day
 * retention (only the seed's backdated history) is not delivered: it is about to be purged.
 */
export function enqueueEventDeliveries(ctx: Ctx, events: { id: string; type: string; created_at: string }[]): void {
  const endpoints = enabledEndpoints(ctx.db);
  if (endpoints.length === 0 || pausedUntil(ctx)) return; // paused: recorded, never delivered (webhook-pause.ts)
  const oldest = Date.now() - RETENTION_MS;
  for (const event of events) {
    if (Date.parse(event.created_at) < oldest) continue;
    for (const endpoint of endpoints) {
      if (subscribes(endpoint.enabled_events, event.type)) insertPendingAttempt(ctx, endpoint.id, event, 1, event.created_at);
    }
  }
}

export function listDeliveries(ctx: Ctx, endpointId: string, q: WebhookDeliveryListQuery): { data: WebhookDelivery[]; next_cursor: string | null } {
  getWebhookEndpoint(ctx, endpointId);
  const conditions: Condition[] = [['endpoint_id = ?', [endpointId]]];
  if (q.event_id) conditions.push(['event_id = ?', [q.event_id]]);
  if (q.status) conditions.push(['status = ?', [q.status]]);
  const { limit, cursor, ...filters } = q;
  const page = listPage(ctx.db, {
    table: 'webhook_deliveries',
    conditions,
    filters: { ...filters, endpoint_id: endpointId },
    sort: 'created',
    limit,
    cursor,
    secret: ctx.cursorSecret,
  });
  return { data: page.rows.map(deliveryFromRow), next_cursor: page.next_cursor };
}

/**
 * Sends an event again: to one endpoint, or to every enabled endpoint that takes its type. Each
 * gets a new round of the retry schedule, with the same webhook-id as before.
 */
export function resendEvent(ctx: Ctx, eventId: string, endpointId?: string): { event_id: string; deliveries: WebhookDelivery[] } {
  return inTransaction(ctx, () => {
    const event = getEvent(ctx, eventId);
    let targets: string[];
    if (endpointId !== undefined) {
      const endpoint = findEndpoint(ctx.db, endpointId);
      if (!endpoint) throw notFound('webhook endpoint', endpointId);
      if (endpoint.status !== 'enabled')
        throw new ApiError('conflict', `The webhook endpoint ${endpointId} is disabled; enable it first (PATCH status "enabled").`);
      targets = [endpointId];
    } else {
      const rows = enabledEndpoints(ctx.db, true);
      targets = rows.filter((r) => subscribes(r.enabled_events, event.type)).map((r) => r.id);
    }
    const now = nowIso(ctx);
    const deliveries = targets.map((id) => insertPendingAttempt(ctx, id, event, 1, now));
    signalOutbox(ctx.db);
    return { event_id: event.id, deliveries };
  });
}

/**
 * Re-queues the deliveries to an endpoint that failed for good (their last attempt failed and no
 * retry is due) at or after `since`, each for a new round of the schedule. On a disabled
 * endpoint they wait until it is enabled again.
 */
export function recoverDeliveries(ctx: Ctx, endpointId: string, since: string): { endpoint_id: string; requeued: number } {
  return inTransaction(ctx, () => {
    getWebhookEndpoint(ctx, endpointId);
    const failed = eventsFailedForGood(ctx.db, endpointId, new Date(since).toISOString());
    const now = nowIso(ctx);
    for (const event of failed) insertPendingAttempt(ctx, endpointId, event, 1, now);
    if (failed.length) signalOutbox(ctx.db);
    return { endpoint_id: endpointId, requeued: failed.length };
  });
}
