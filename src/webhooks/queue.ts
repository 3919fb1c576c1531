import type { Ctx } from '../services/context.js';
import { disableGoneEndpoint, signingSecrets } from '../services/webhook-endpoints.js';
import { insertPendingAttempt } from '../services/webhook-deliveries.js';
import { eventJson } from '../services/event-log.js';
import type { Row } from '../store/rows.js';
import { dueAttemptRows, nextDueTimeAfter, settlePending } from '../store/webhook-queue.js';
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
  return dueAttemptRows(ctx.db, now, limit, skip).map((r: Row) => ({
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
  const next = nextDueTimeAfter(ctx.db, now);
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
    const settled = settlePending(ctx.db, due.id, {
      status: ok ? 'succeeded' : 'failed',
      statusCode: outcome.statusCode,
      durationMs: Math.round(outcome.durationMs),
      error,
      nextAttemptAt: nextAt,
      attemptedAt: new Date(outcome.startedAt).toISOString(),
    });
    // Gone meanwhile: its endpoint was deleted or its event purged while the request ran.
    if (!settled) return false;
    if (outcome.statusCode === 410) disableGoneEndpoint(ctx, due.endpointId);
    if (nextAt !== null) insertPendingAttempt(ctx, due.endpointId, { id: due.eventId, type: due.eventType }, due.attempt + 1, nextAt);
    return nextAt !== null;
  })();
}
