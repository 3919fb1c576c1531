import type { Db } from './db.js';
import { allRows, insertRow, insertRows, stmt, type Row } from './rows.js';

/**
 * The event log's table: rows are written with their change (services/events.ts) and read by id,
 * by list, after a position (the stream, deliveries), and purged past retention. Times are
 * ISO 8601 text, so they compare as strings.
 */

/** An event as written: data and previous_attributes already JSON text. */
export interface EventRow {
  id: string;
  type: string;
  object_id: string;
  data: string;
  previous_attributes: string | null;
  created_at: string;
}

export const insertEvent = (db: Db, row: EventRow): void => insertRow(db, 'events', row as unknown as Row);

/** Many events, a hundred a statement (rows.ts: insertRows). */
export const insertEventRows = (db: Db, rows: EventRow[]): void => insertRows(db, 'events', rows as unknown as Row[]);

/** The event with this id, if it was made at or after `since`. */
export const findEventSince = (db: Db, id: string, since: string): Row | undefined =>
  stmt(db, 'SELECT * FROM events WHERE id = ? AND created_at >= ?').get(id, since) as Row | undefined;

/** The time of the oldest event made at or after `since`, if any: one lookup in the events_created index. */
export const oldestEventTimeSince = (db: Db, since: string): string | null =>
  stmt(db, 'SELECT min(created_at) FROM events WHERE created_at >= ?').pluck().get(since) as string | null;

/** eventJson in SQL, for the list (list-json.ts): the stored JSON spliced in, never parsed. */
export const EVENT_JSON_SQL = `'{"id":' || json_quote(id) || ',"type":' || json_quote(type) || ',"created_at":' || json_quote(created_at)
  || ',"data":{"object":' || data || '}' || iif(previous_attributes IS NULL, '', ',"previous_attributes":' || previous_attributes) || '}'`;

/** Up to `limit` events after the id `after` made at or after `since`, oldest first. */
export const eventRowsAfter = (db: Db, after: string, since: string, limit: number): Row[] =>
  allRows(db, 'SELECT * FROM events WHERE id > ? AND created_at >= ? ORDER BY id LIMIT ?', [after, since, limit]);

export const latestEventIdOrNull = (db: Db): string | null => stmt(db, 'SELECT max(id) FROM events').pluck().get() as string | null;

/** Deletes events made before `cutoff`; their delivery attempts go with them (ON DELETE CASCADE). */
export const deleteEventsBefore = (db: Db, cutoff: string): number => stmt(db, 'DELETE FROM events WHERE created_at < ?').run(cutoff).changes;
