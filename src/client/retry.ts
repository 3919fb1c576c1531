/**
 * When and how long to wait before trying a request again (after stripe-node's RequestSender):
 * exponential backoff with jitter for network errors and 5xx, the server's own word for 429 and
 * for 409 idempotency_key_in_use (Retry-After, else the RateLimit reset).
 */
export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 6, baseDelayMs: 250, maxDelayMs: 20_000 };

export function backoffMs(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(exponential * (0.5 + random() / 2)); // jitter: 50–100 % spreads retrying clients apart
}

/** Seconds from Retry-After (delta or HTTP date), else the `t` of a RateLimit field. */
function serverDelayMs(headers: Record<string, string | string[] | undefined>, now = Date.now()): number | undefined {
  const retryAfter = first(headers['retry-after']);
  if (retryAfter !== undefined) {
    if (/^\d+$/.test(retryAfter.trim())) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const t = /;t=(\d+)/.exec(first(headers['ratelimit']) ?? '');
  return t ? Number(t[1]) * 1000 : undefined;
}

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

export function decideRetry(
  outcome: { status: number; code?: string | undefined; headers: Record<string, string | string[] | undefined> } | { networkError: true },
  attempt: number,
  policy: RetryPolicy,
): RetryDecision {
  if (attempt >= policy.maxRetries) return { retry: false };
  if ('networkError' in outcome) return { retry: true, delayMs: backoffMs(attempt, policy) };
  const { status, code, headers } = outcome;
  if (status === 429 || (status === 409 && code === 'idempotency_key_in_use')) {
    return { retry: true, delayMs: Math.min(policy.maxDelayMs * 3, serverDelayMs(headers) ?? backoffMs(attempt, policy)) };
  }
  if (status === 500 || status === 502 || status === 503 || status === 504) {
    return { retry: true, delayMs: Math.max(serverDelayMs(headers) ?? 0, backoffMs(attempt, policy)) };
  }
  return { retry: false };
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
