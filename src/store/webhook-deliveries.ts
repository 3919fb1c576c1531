import type { Db } from './db.js';
import { allRows, insertRow, type Row } from './rows.js';

/** A delivery attempt as stored: the queue the worker drains and the log users read. */
export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: string;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: string | null;
  attempted_at: string | null;
  created_at: string;
}

export const insertDelivery = (db: Db, row: DeliveryRow): void => insertRow(db, 'webhook_deliveries', row as unknown as Row);

/**
 * The events whose deliveries to the endpoint failed for good (their last attempt failed and no
 * retry is due) at or after `since`, by event id.
 */
export const eventsFailedForGood = (db: Db, endpointId: string, since: string): { id: string; type: string }[] =>
  allRows(
    db,
    `SELECT d.event_id AS id, d.event_type AS type FROM webhook_deliveries d
        WHERE d.endpoint_id = ? AND d.status = 'failed' AND d.next_attempt_at IS NULL AND d.attempted_at >= ?
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries later
                           WHERE later.endpoint_id = d.endpoint_id AND later.event_id = d.event_id AND later.id > d.id)
        ORDER BY d.event_id`,
    [endpointId, since],
  ).map((row) => ({ id: String(row.id), type: String(row.type) }));
