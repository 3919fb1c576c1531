import { setTimeout as sleep } from 'node:timers/promises';

type Headers = Record<string, string | string[] | undefined>;

/** Only a rate (a window up to a minute) is spread out; a daily quota is obeyed when it runs out (429). */
const MAX_PACED_WINDOW_S = 60;
/** Start just under the policy's rate; every 429 slows down a further 5 %, to at most 70 % of it. */
const START_SHARE = 0.95;
const STEP = 0.95;
const FLOOR_SHARE = 0.7;

/**
 * Keeps a client under the server's rate limit (API.md §6, §14) instead of running into 429s.
 *
 *   - `RateLimit-Policy` names each policy's quota q per window w seconds. Requests are started
 *     w/q apart (at 95 % of that rate) by the shortest policy whose window is a minute or less;
 *     with no such policy (the sandbox's `--rate-limit 0`, or a server that sends none) there is
 *     no spacing at all.
 *   - The server counts windows that start at the first request after the last window ended, and
 *     counts a request when it is served, not when it was sent: a request held up behind a slow
 *     one can open a window late, and the next twenty then fit in less than a second. So each 429
 *     (rate_limited) the client meets slows it by 5 % more, down to 70 % of the rate.
 *   - `RateLimit: "burst";r=0;t=1` (or X-RateLimit-Remaining 0 with X-RateLimit-Reset) holds
 *     every request until the window resets, when that is within a minute.
 *
 * Concurrency follows: requests in flight cannot start faster than the spacing lets them.
 */
export class Pacer {
  private baseIntervalMs = 0;
  private share = START_SHARE;
  private nextAt = 0;
  private heldUntil = 0;

  get intervalMs(): number {
    return this.baseIntervalMs === 0 ? 0 : this.baseIntervalMs / this.share;
  }

  /** Until when requests are held (ms since the epoch; 0 for not held). */
  get heldUntilMs(): number {
    return this.heldUntil;
  }

  /** Waits for this request's turn. */
  async acquire(): Promise<void> {
    const now = Date.now();
    const start = Math.max(now, this.nextAt, this.heldUntil);
    this.nextAt = start + this.intervalMs;
    if (start > now) await sleep(start - now);
  }

  observe(headers: Headers): void {
    const policies = first(headers['ratelimit-policy']);
    if (policies !== undefined) {
      const windows = [...policies.matchAll(/;\s*q=(\d+)\s*;\s*w=(\d+)/g)].map((m) => ({ q: Number(m[1]), w: Number(m[2]) }));
      const rates = windows.filter((p) => p.q > 0 && p.w <= MAX_PACED_WINDOW_S).map((p) => (p.w * 1000) / p.q);
      this.baseIntervalMs = rates.length ? Math.max(...rates) : 0;
    }
    const state = first(headers.ratelimit);
    const remaining = num(state ? /;\s*r=(\d+)/.exec(state)?.[1] : first(headers['x-ratelimit-remaining']));
    const reset = num(state ? /;\s*t=(\d+)/.exec(state)?.[1] : first(headers['x-ratelimit-reset']));
    if (remaining === 0 && reset !== undefined && reset <= MAX_PACED_WINDOW_S) {
      this.heldUntil = Math.max(this.heldUntil, Date.now() + reset * 1000);
    }
  }

  /** A 429 for the rate (not the quota): go a little slower from now on. */
  slowDown(): void {
    this.share = Math.max(FLOOR_SHARE, this.share * STEP);
  }
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(', ') : value);
const num = (text: string | undefined): number | undefined => (text === undefined || text === '' ? undefined : Number(text));
