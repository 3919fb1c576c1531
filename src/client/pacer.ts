import { setTimeout as sleep } from 'node:timers/promises';

type Headers = Record<string, string | string[] | undefined>;

/**
 * Keeps a client under the server's rate limit (API.md §6, §14) instead of running into 429s:
 *   - RateLimit-Policy names each policy's quota q per window w seconds. Requests are spaced by
 *     the shortest-window policy (w/q, with a little headroom, since the server counts fixed
 *     windows and the spacing drifts against them); longer ones (a daily quota) are not spread
 *     out, only obeyed when they run out.
 *   - RateLimit `r=0;t=5` (or X-RateLimit-Remaining 0 with X-RateLimit-Reset 5) holds every request
 *     until the window resets.
 * Concurrency follows: requests in flight cannot start faster than the spacing lets them.
 * A server that sends none of these fields is not paced at all.
 */
export class Pacer {
  private intervalMs = 0;
  private nextAt = 0;
  private blockedUntil = 0;

  /** Headroom below the policy's rate: 95 % of it keeps 429s rare on fixed windows. */
  static readonly HEADROOM = 0.95;

  async acquire(): Promise<void> {
    const now = Date.now();
    const start = Math.max(now, this.nextAt, this.blockedUntil);
    this.nextAt = start + this.intervalMs;
    if (start > now) await sleep(start - now);
  }

  observe(headers: Headers): void {
    const policy = first(headers['ratelimit-policy']);
    if (policy) {
      const windows = [...policy.matchAll(/"?([^",;\s]+)"?\s*;\s*q=(\d+)\s*;\s*w=(\d+)/g)].map((m) => ({ q: Number(m[2]), w: Number(m[3]) }));
      const shortest = windows.filter((p) => p.q > 0).sort((a, b) => a.w - b.w)[0];
      if (shortest) this.intervalMs = (shortest.w * 1000) / (shortest.q * Pacer.HEADROOM);
    }
    const state = first(headers.ratelimit);
    let remaining: number | undefined;
    let reset: number | undefined;
    if (state) {
      remaining = num(/;\s*r=(\d+)/.exec(state)?.[1]);
      reset = num(/;\s*t=(\d+)/.exec(state)?.[1]);
    } else {
      remaining = num(first(headers['x-ratelimit-remaining']));
      reset = num(first(headers['x-ratelimit-reset']));
    }
    if (remaining === 0 && reset !== undefined) this.blockedUntil = Math.max(this.blockedUntil, Date.now() + reset * 1000);
  }
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(', ') : value);
const num = (text: string | undefined): number | undefined => (text === undefined || text === '' ? undefined : Number(text));
