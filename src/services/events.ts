import type { EventType } from '../schemas/event.js';
import { insertRow, json } from '../store/rows.js';
import { nowIso, type Ctx } from './context.js';
import { signalOutbox } from './outbox-signal.js';
import { enqueueEventDeliveries } from './webhook-deliveries.js';

/**
 * Writes an event to the outbox. Callers run inside the transaction that made the change, so the
 * event exists exactly when the change does (API.md §7). Its webhook deliveries are queued in the
 * same transaction, and the stream and the worker are nudged to look once it has committed.
 */
export function recordEvent(
  ctx: Ctx,
  type: EventType,
  object: { id: string },
  previousAttributes?: Record<string, unknown>,
): string {
  const id = ctx.ids.next('evt');
  const createdAt = nowIso(ctx);
  insertRow(ctx.db, 'events', {
    id,
    type,
    object_id: object.id,
    data: json(object),
    previous_attributes: previousAttributes ? json(previousAttributes) : null,
    created_at: createdAt,
  });
  enqueueEventDeliveries(ctx, { id, type, created_at: createdAt });
  signalOutbox(ctx.db);
  return id;
}
