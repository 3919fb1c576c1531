import type { EventType } from '../schemas/event.js';
import { insertEvent, insertEventRows, type EventRow } from '../store/events.js';
import type { Db } from '../store/db.js';
import { json } from '../store/rows.js';
import { changedAttributes } from './changes.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';
import { signalOutbox } from './outbox-signal.js';
import { enqueueEventDeliveries } from './webhook-deliveries.js';

/**
 * Writes an event to the outbox. Callers run inside the transaction that made the change, so the
 * event exists exactly when the change does (docs/reference/events.md). Its webhook deliveries are queued in the
 * same transaction, and the stream and the worker are nudged to look once it has committed.
 */
export function recordEvent(ctx: Ctx, type: EventType, object: { id: string }, previousAttributes?: Record<string, unknown>): string {
  const row = eventRow(ctx, type, object, previousAttributes);
  insertEvent(ctx.db, row);
  enqueueEventDeliveries(ctx, [row]);
  signalOutbox(ctx.db);
  return row.id;
}

/** recordEvent for many new objects at once (a bulk create): the same events, written together. */
export function recordEvents(ctx: Ctx, type: EventType, objects: { id: string }[]): void {
  const rows = objects.map((object) => eventRow(ctx, type, object));
  insertEventRows(ctx.db, rows);
  enqueueEventDeliveries(ctx, rows);
  signalOutbox(ctx.db);
}

function eventRow(ctx: Ctx, type: EventType, object: { id: string }, previousAttributes?: Record<string, unknown>): EventRow {
  return {
    id: ctx.ids.next('evt'),
    type,
    object_id: object.id,
    data: json(object),
    previous_attributes: previousAttributes ? json(previousAttributes) : null,
    created_at: nowIso(ctx),
  };
}

/**
 * The end of an update: when it changed something, the new row is written and its event carries the
 * old values of what changed; when it changed nothing, the record stays as it was and no event goes out.
 */
export function saveUpdate<T extends { id: string }>(ctx: Ctx, type: EventType, before: T, after: T, write: (db: Db, record: T) => void): T {
  const previous = changedAttributes(before, after);
  if (!previous) return before;
  write(ctx.db, after);
  recordEvent(ctx, type, after, previous);
  return after;
}
