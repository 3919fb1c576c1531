import { notFound } from '../errors.js';
import type { Event, EventListQuery } from '../schemas/event.js';
import type { Db } from '../store/db.js';
import type { Condition } from '../store/list.js';
import { listTableJson, type JsonBody } from '../store/list-json.js';
import { deleteEventsBefore, EVENT_JSON_SQL, eventRowsAfter, findEventSince, latestEventIdOrNull, oldestEventTimeSince } from '../store/events.js';
import { parseJson, type Row } from '../store/rows.js';
import type { Ctx } from './context.js';

/**
 * Reading the event log (docs/reference/events.md#reading-events): one event, a filtered cursor list, the events after a
 * position for the stream, and the 30-day retention. Events are written by recordEvent only.
 */
export const RETENTION_MS = 30 * 24 * 3_600_000;

const cutoff = (ctx: Ctx): string => new Date(ctx.clock() - RETENTION_MS).toISOString();

export function eventFromRow(row: Row): Event {
  const previous = parseJson<Record<string, unknown> | null>(row.previous_attributes as string | null, null);
  return {
    id: String(row.id),
    type: row.type as Event['type'],
    created_at: String(row.created_at),
    data: { object: parseJson<Record<string, unknown>>(row.data as string, {}) },
    ...(previous ? { previous_attributes: previous } : {}),
  };
}

/**
 * The event's JSON text, straight from its row: `data` and `previous_attributes` are stored as
 * JSON already, so they are spliced in rather than parsed and serialised again (deliveries and the
 * stream send every event, so this is on the hot path). Same text as JSON.stringify(eventFromRow(row)).
 */
export function eventJson(row: Row): string {
  const previous = row.previous_attributes === null ? '' : `,"previous_attributes":${row.previous_attributes}`;
  return `{"id":${JSON.stringify(row.id)},"type":${JSON.stringify(row.type)},"created_at":${JSON.stringify(row.created_at)},"data":{"object":${row.data}}${previous}}`;
}

/**
 * An event is readable until it is 30 days old, whether or not the hourly purge has removed it
 * yet, so that the retention is exact. (The seed's history is backdated and falls outside it.)
 */
export function getEvent(ctx: Ctx, id: string): Event {
  const row = findEventSince(ctx.db, id, cutoff(ctx));
  if (!row) throw notFound('event', id);
  return eventFromRow(row);
}

/**
 * The retention's bound as a list's parameter: the time of the oldest event still within it,
 * rather than the cutoff itself. The same events match (none lies between the two), but the cutoff
 * moves every millisecond and this only when an event leaves the window, so a page of events can
 * be kept and sent again like any list's (list-json.ts keys its pages by their parameters; issue
 * #27: the events list was never one). One lookup in the events_created index.
 */
function oldestKept(ctx: Ctx): string {
  const bound = cutoff(ctx);
  return oldestEventTimeSince(ctx.db, bound) ?? bound;
}

/** `order` may be left out (oldest first), as in the API. */
export function listEvents(ctx: Ctx, q: Omit<EventListQuery, 'order'> & { order?: EventListQuery['order'] }): JsonBody {
  const conditions: Condition[] = [['created_at >= ?', [oldestKept(ctx)]]];
  const types = q.type?.split(',');
  if (types) conditions.push([`type IN (${types.map(() => '?').join(', ')})`, types]);
  if (q.object_id) conditions.push(['object_id = ?', [q.object_id]]);
  if (q.created_after) conditions.push(['created_at > ?', [new Date(q.created_after).toISOString()]]);
  return listTableJson(ctx.db, ctx.cursorSecret, 'events', q, conditions, EVENT_JSON_SQL);
}

/**
 * The events after a position, oldest first. Ids grow in commit order (one process writes, and
 * its id generator is monotonic inside synchronous transactions), so "id > position" never skips
 * an event that commits later.
 */
export function eventsAfter(ctx: Ctx, after: string, limit: number): Row[] {
  return eventRowsAfter(ctx.db, after, cutoff(ctx), limit);
}

/** The newest event's id, or `evt_` (which sorts before every id) when there are none. */
export function latestEventId(db: Db): string {
  return latestEventIdOrNull(db) ?? 'evt_';
}

/** Deletes events past retention; their delivery attempts go with them (ON DELETE CASCADE). */
export function purgeExpiredEvents(ctx: Ctx): number {
  return deleteEventsBefore(ctx.db, cutoff(ctx));
}
