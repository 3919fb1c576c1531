/**
 * Fixed-window counters for the two policies of docs/reference/limits.md#rate-limits-and-quotas ("burst" and "daily"), per key or
 * token. Pure and clock-driven, so the HTTP layer only reads and writes headers.
 */
import { DURATION_UNIT_MS } from './duration.js';

export interface Policy {
  name: string;
  quota: number;
  windowSeconds: number;
}

/** "100/1s", "100000/1d", "5000/15m"; "0" turns the policy off (returns null). */
export function parsePolicy(name: string, text: string): Policy | null {
  if (text.trim() === '0') return null;
  const match = /^(\d+)\/(\d*)([smhd])$/.exec(text.trim());
  if (!match) throw new Error(`Expected a limit like 100/1s or 100000/1d (or 0 for none), not '${text}'.`);
  const quota = Number(match[1]);
  const windowSeconds = (Number(match[2] || '1') * DURATION_UNIT_MS[match[3]!]!) / 1000;
  if (quota < 1 || windowSeconds < 1) throw new Error(`A limit needs a quota and a window of at least 1, not '${text}'.`);
  return { name, quota, windowSeconds };
}

export interface PolicyState {
  policy: Policy;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly policies: Policy[],
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Counts one request for `subject` unless a policy is exhausted; returns every policy's state
   * and, when refused, the policy that refused it. A refused request is not counted.
   */
  hit(subject: string): { states: PolicyState[]; refusedBy: PolicyState | null } {
    const now = this.clock();
    const current = this.policies.map((policy) => {
      const key = `${policy.name}\u0000${subject}`;
      const windowMs = policy.windowSeconds * 1000;
      const start = Math.floor(now / windowMs) * windowMs;
      let window = this.windows.get(key);
      if (!window || window.start !== start) this.windows.set(key, (window = { start, count: 0 }));
      return { policy, window, reset: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
    });
    const refused = current.find((c) => c.window.count >= c.policy.quota);
    if (!refused) for (const c of current) c.window.count += 1;
    const states = current.map((c) => ({ policy: c.policy, remaining: Math.max(0, c.policy.quota - c.window.count), reset: c.reset }));
    return { states, refusedBy: refused ? states[current.indexOf(refused)]! : null };
  }

  /** Requests counted so far in the current window of a policy (for usage reports). */
  used(subject: string, policyName: string): { used: number; resetsAt: number } | null {
    const policy = this.policies.find((p) => p.name === policyName);
    if (!policy) return null;
    const windowMs = policy.windowSeconds * 1000;
    const start = Math.floor(this.clock() / windowMs) * windowMs;
    const window = this.windows.get(`${policyName}\u0000${subject}`);
    return { used: window && window.start === start ? window.count : 0, resetsAt: start + windowMs };
  }
}

/** The policy nearest exhaustion: the one whose remaining share of its quota is smallest. */
export function nearestExhaustion(states: PolicyState[]): PolicyState | undefined {
  return [...states].sort((a, b) => a.remaining / a.policy.quota - b.remaining / b.policy.quota || a.reset - b.reset)[0];
}
