/**
 * When a delivery is tried (docs/reference/events.md#webhooks, Svix's schedule): at once, then 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h and 10 h after each failure — 8 attempts over about 27.6 hours, then `failed`.
 * `--webhook-time-scale F` multiplies the waits, so a test can watch a whole schedule in seconds.
 */
const RETRY_DELAYS_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;

/** Retry-After can ask for longer than the schedule, but not for longer than a day. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * The wait before attempt `attempt + 1`, after attempt `attempt` (1-based) failed, or null when
 * the attempts are used up. A receiver's Retry-After is real time, not scaled: it is the
 * receiver's own word about when it can take the request again, so it is a lower bound.
 */
export function retryDelayMs(attempt: number, timeScale: number, retryAfterMs?: number): number | null {
  const next = RETRY_DELAYS_MS[attempt];
  if (next === undefined) return null;
  const scheduled = Math.round(next * timeScale);
  return retryAfterMs === undefined ? scheduled : Math.max(scheduled, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
