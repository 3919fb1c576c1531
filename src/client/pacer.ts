import { setTimeout as sleep } from 'node:timers/promises';

type Headers = Record<string, string | string[] | undefined>;

/** Only a rate (a window up to a minute) is spread out; a daily quota is obeyed when it runs out (429). */
const MAX_PACED_WINDOW_S = 60;
/** Start just under the policy's rate; every 429 slows down a further 5 %, to at most 70 % of it. */
const START_SHARE = 0.95;
const STEP = 0.95;
const FLOOR_SHARE = 0.7;

/**
 * Keeps a client under the server's rate limit (docs/reference/limits.md#rate-limits-and-quotas, docs/sync.md#pacing-by-the-servers-limits) instead of running into 429s.
 *
 *   - `RateLimit-Policy` names each policy's quota q per window w seconds. Requests are started
 *     w/q apart (at 95 % of that rate) by the shortest policy whose window is a minute or less;
 *     with no such policy (the sandbox's `--rate-limit 0`, or a server that sends none) there is
 *     no spacing at all.
 *   - The server counts a request when it serves it, not when it was sent: requests held up behind
 *     a slow one are counted together, and twenty can fall in one window. So each 429
 *     (rate_limited) the client meets slows it by 5 % more, down to 70 % of the rate.
 *   - `RateLimit: "burst";r=0;t=1` (or X-RateLimit-Remaining 0 with X-RateLimit-Reset) holds
 *     every request until the window resets, when that is within a minute. `t` is whole seconds,
 *     rounded up: for a window of one second it is always 1, whether 900 ms or 30 ms are left (a
 *     20/s import stalled ~0.65 s now and then, running at 77–85 % of the rate). So the pacer notes
 *     when each policy's window began, as it saw it: the first answer with more remaining than the
 *     answer before. That answer came after the server counted its request, so the window cannot
 *     have begun later: the hold ends at that start plus the window, if that is sooner than `t`.
 *
 * Concurrency follows: requests in flight cannot start faster than the spacing lets them.
 */
export class Pacer {
  private baseIntervalMs = 0;
  private share = START_SHARE;
  private nextAt = 0;
  private heldUntil = 0;
  /** Each named policy's window in seconds, from RateLimit-Policy. */
  private readonly windowSeconds = new Map<string, number>();
  /** Each named policy's window as this client saw it: when it began, and the remaining last answered. */
  private readonly seen = new Map<string, { startedAt: number; remaining: number }>();

  /** `clock`: ms since the epoch (tests pass their own). */
  constructor(private readonly clock: () => number = Date.now) {}

  get intervalMs(): number {
    return this.baseIntervalMs === 0 ? 0 : this.baseIntervalMs / this.share;
  }

  /** Until when requests are held (ms since the epoch; 0 for not held). */
  get heldUntilMs(): number {
    return this.heldUntil;
  }

  /** Waits for this request's turn. */
  async acquire(): Promise<void> {
    const now = this.clock();
    const start = Math.max(now, this.nextAt, this.heldUntil);
    this.nextAt = start + this.intervalMs;
    if (start > now) await sleep(start - now);
  }

  observe(headers: Headers): void {
    const now = this.clock();
    const policies = first(headers['ratelimit-policy']);
    if (policies !== undefined) {
      const windows = [...policies.matchAll(/(?:"([^"]*)"\s*)?;\s*q=(\d+)\s*;\s*w=(\d+)/g)].map((m) => ({ name: m[1], q: Number(m[2]), w: Number(m[3]) }));
      const rates = windows.filter((p) => p.q > 0 && p.w <= MAX_PACED_WINDOW_S).map((p) => (p.w * 1000) / p.q);
      this.baseIntervalMs = rates.length ? Math.max(...rates) : 0;
      for (const { name, w } of windows) if (name !== undefined) this.windowSeconds.set(name, w);
    }
    const state = first(headers.ratelimit);
    const name = state ? /^\s*"([^"]*)"/.exec(state)?.[1] : undefined;
    const remaining = num(state ? /;\s*r=(\d+)/.exec(state)?.[1] : first(headers['x-ratelimit-remaining']));
    const reset = num(state ? /;\s*t=(\d+)/.exec(state)?.[1] : first(headers['x-ratelimit-reset']));
    if (name !== undefined && remaining !== undefined) this.noteWindow(name, remaining, now);
    if (remaining === 0 && reset !== undefined && reset <= MAX_PACED_WINDOW_S) {
      const ends = name === undefined ? undefined : this.windowEnd(name, now);
      this.heldUntil = Math.max(this.heldUntil, Math.min(now + reset * 1000, ends ?? Infinity));
    }
  }

  private noteWindow(name: string, remaining: number, now: number): void {
    const window = this.seen.get(name);
    if (!window || remaining > window.remaining) this.seen.set(name, { startedAt: now, remaining });
    else window.remaining = remaining;
  }

  /** When the window the pacer saw begin ends; undefined when it has not seen one, or it is over (one began unseen). */
  private windowEnd(name: string, now: number): number | undefined {
    const window = this.seen.get(name);
    const seconds = this.windowSeconds.get(name);
    if (!window || seconds === undefined) return undefined;
    const ends = window.startedAt + seconds * 1000;
    return ends > now ? ends : undefined;
  }

  /** A 429 for the rate (not the quota): go a little slower from now on. */
  slowDown(): void {
    this.share = Math.max(FLOOR_SHARE, this.share * STEP);
  }
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(', ') : value);
const num = (text: string | undefined): number | undefined => (text === undefined || text === '' ? undefined : Number(text));
