import type { EventType } from '../schemas/event.js';
import { insertRow, json } from '../store/rows.js';
import { nowIso, type Ctx } from './context.js';

/**
 * Writes an event to the outbox. Callers run inside the transaction that made the change, so the
 * event exists exactly when the change does (API.md §7).
 */
export function recordEvent(
  ctx: Ctx,
  type: EventType,
  object: { id: string },
  previousAttributes?: Record<string, unknown>,
): string {
  const id = ctx.ids.next('evt');
  insertRow(ctx.db, 'events', {
    id,
    type,
    object_id: object.id,
    data: json(object),
    previous_attributes: previousAttributes ? json(previousAttributes) : null,
    created_at: nowIso(ctx),
  });
  return id;
}
