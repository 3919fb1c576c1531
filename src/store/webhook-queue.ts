import type { Db } from './db.js';
import { allRows, stmt, type Row } from './rows.js';

/**
 * The SQL of the delivery queue (src/webhooks/queue.ts): webhook_deliveries is both the queue and
 * the log, one row per attempt, `pending` until made.
 */

/**
 * Pending attempts due by `now` on enabled endpoints, oldest due first, leaving out the ids in
 * `skip`: each with its endpoint's URL and secrets and its event's row.
 */
export function dueAttemptRows(db: Db, now: number, limit: number, skip: ReadonlySet<string>): Row[] {
  return allRows(
    db,
    `SELECT d.id AS delivery_id, d.endpoint_id, d.event_id, d.event_type, d.attempt,
            w.url, w.secret, w.previous_secret, w.previous_secret_expires_at, e.*
       FROM webhook_deliveries d
       JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.status = 'enabled'
       JOIN events e ON e.id = d.event_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND d.id NOT IN (SELECT value FROM json_each(?))
      ORDER BY d.next_attempt_at, d.id
      LIMIT ?`,
    [new Date(now).toISOString(), JSON.stringify([...skip]), limit],
  );
}

/** When the next pending attempt after `now` is due (on an enabled endpoint), as stored, or undefined. */
export const nextDueTimeAfter = (db: Db, now: number) =>
  stmt(
    db,
    `SELECT d.next_attempt_at FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.status = 'enabled'
      WHERE d.status = 'pending' AND d.next_attempt_at > ? ORDER BY d.next_attempt_at LIMIT 1`,
  )
    .pluck()
    .get(new Date(now).toISOString()) as string | undefined;

export interface Settlement {
  status: 'succeeded' | 'failed';
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  nextAttemptAt: string | null;
  attemptedAt: string;
}

/** Settles a pending attempt; false when it is no longer there (its endpoint or event went meanwhile). */
export function settlePending(db: Db, id: string, s: Settlement): boolean {
  const updated = stmt(
    db,
    `UPDATE webhook_deliveries SET status = ?, status_code = ?, duration_ms = ?, error = ?, next_attempt_at = ?, attempted_at = ?
      WHERE id = ? AND status = 'pending'`,
  ).run(s.status, s.statusCode, s.durationMs, s.error, s.nextAttemptAt, s.attemptedAt, id);
  return updated.changes > 0;
}
