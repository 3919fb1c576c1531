import type { Ctx } from '../services/context.js';
import { disableGoneEndpoint, signingSecrets } from '../services/webhook-endpoints.js';
import { insertPendingAttempt } from '../services/webhook-deliveries.js';
import { eventJson } from '../services/event-log.js';
import { allRows, stmt, type Row } from '../store/rows.js';
import { MAX_ATTEMPTS, retryDelayMs } from './schedule.js';

/** One attempt the worker is about to make: where, with which secrets, and the exact body. */
export interface DueAttempt {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  url: string;
  secrets: string[];
  body: string;
}

/** What came of an attempt: an HTTP status, or no answer at all (error set, statusCode null). */
export interface AttemptOutcome {
  /** When the attempt began, on the account's clock (a test clock may have moved since). */
  startedAt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  retryAfterMs?: number | undefined;
}

/**
 * Pending attempts whose time has come, on enabled endpoints, oldest due first, leaving out
 * `skip` (the ids already in flight in this process). The body is built from the event row,
 * which never changes, so every retry sends the same bytes.
 */
export function dueAttempts(ctx: Ctx, now: number, limit: number, skip: ReadonlySet<string>): DueAttempt[] {
  const rows = allRows(
    ctx.db,
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
  return rows.map((r: Row) => ({
    id: String(r.delivery_id),
    endpointId: String(r.endpoint_id),
    eventId: String(r.event_id),
    eventType: String(r.event_type),
    attempt: Number(r.attempt),
    url: String(r.url),
    secrets: signingSecrets(r as { secret: string; previous_secret: string | null; previous_secret_expires_at: string | null }, now),
    body: eventJson(r),
  }));
}

/** When the next pending attempt after `now` is due (on an enabled endpoint), or undefined when none is. */
export function nextDueAfter(ctx: Ctx, now: number): number | undefined {
  const next = stmt(
    ctx.db,
    `SELECT d.next_attempt_at FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.status = 'enabled'
      WHERE d.status = 'pending' AND d.next_attempt_at > ? ORDER BY d.next_attempt_at LIMIT 1`,
  )
    .pluck()
    .get(new Date(now).toISOString()) as string | undefined;
  return next === undefined ? undefined : Date.parse(next);
}

const succeeded = (code: number | null) => code !== null && code >= 200 && code < 300;

/**
 * Records an attempt's outcome and, in the same transaction, schedules the next one: a crash
 * leaves either the pending attempt (to be made again) or its settlement with its successor,
 * never a failed attempt with nothing after it. A 2xx ends the delivery; a 410 ends it and
 * disables the endpoint; otherwise the schedule (and Retry-After) decide, until 8 attempts.
 * The retry is timed from the answer (start + duration), not from when this runs: a test clock
 * advanced while the request was in flight must make that retry due, not push it further out.
 * Returns whether a retry was scheduled.
 */
export function settleAttempt(ctx: Ctx, due: DueAttempt, outcome: AttemptOutcome, timeScale: number): boolean {
  return ctx.db.transaction(() => {
    const answeredAt = outcome.startedAt + outcome.durationMs;
    const ok = succeeded(outcome.statusCode);
    let error = outcome.error ?? (ok ? null : `The endpoint answered HTTP ${outcome.statusCode}.`);
    const delay = ok || outcome.statusCode === 410 ? null : retryDelayMs(due.attempt, timeScale, outcome.retryAfterMs);
    const nextAt = delay === null ? null : new Date(answeredAt + delay).toISOString();
    if (outcome.statusCode === 410) error = 'The endpoint answered 410 Gone: it is now disabled and gets no more deliveries.';
    else if (!ok && nextAt === null) error = `${error} Gave up after ${MAX_ATTEMPTS} attempts.`;
    const updated = stmt(
      ctx.db,
      `UPDATE webhook_deliveries SET status = ?, status_code = ?, duration_ms = ?, error = ?, next_attempt_at = ?, attempted_at = ?
        WHERE id = ? AND status = 'pending'`,
    ).run(ok ? 'succeeded' : 'failed', outcome.statusCode, Math.round(outcome.durationMs), error, nextAt, new Date(outcome.startedAt).toISOString(), due.id);
    // Gone meanwhile: its endpoint was deleted or its event purged while the request ran.
    if (updated.changes === 0) return false;
    if (outcome.statusCode === 410) disableGoneEndpoint(ctx, due.endpointId);
    if (nextAt !== null) insertPendingAttempt(ctx, due.endpointId, { id: due.eventId, type: due.eventType }, due.attempt + 1, nextAt);
    return nextAt !== null;
  })();
}
