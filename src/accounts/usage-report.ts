import type { Account } from './account.js';
import type { Usage } from '../schemas/usage.js';
import type { RequestSource } from '../schemas/request-source.js';
import type { Principal } from '../services/api-keys.js';
import { day, STATUS_CLASSES, totalsBy } from '../services/usage.js';

/**
 * The usage report (docs/reference/limits.md#usage) as GET /v1/usage, its stream and the dashboard's stream send it: of
 * one source's requests (the dashboard's, or the others'), or of all. The quota and rate limit are
 * the key's whatever made the requests: they count both.
 */
export function usageReport(account: Account, principal: Principal, forDay?: string, source?: RequestSource): Usage {
  const { meter, limiter } = account;
  const rows = meter.rows(forDay, source);
  const series = meter.perSecond(source);
  const byClass = meter.perSecondByClass(source);
  const quota = limiter.policies.find((p) => p.name === 'daily');
  const used = quota ? limiter.used(principal.subject, 'daily') : null;
  const burst = limiter.policies.find((p) => p.name === 'burst');
  return {
    day: forDay ?? day(account.ctx.clock()),
    generated_at: new Date(account.ctx.clock()).toISOString(),
    source: source ?? null,
    totals: { requests: rows.reduce((n, r) => n + r.requests, 0) },
    by_source: totalsBy(rows, 'source').map(({ key, requests }) => ({ source: key, requests })),
    by_key: totalsBy(rows, 'subject').map(({ key, requests }) => ({ key_id: key, requests })),
    by_endpoint: totalsBy(rows, 'endpoint').map(({ key, requests }) => ({ endpoint: key, requests })),
    by_status: totalsBy(rows, 'status').map(({ key, requests }) => ({ status: key, requests })),
    quota:
      quota && used
        ? { limit: quota.quota, used: used.used, remaining: Math.max(0, quota.quota - used.used), resets_at: new Date(used.resetsAt).toISOString() }
        : null,
    rate_limit: burst ? { limit: burst.quota, window_seconds: burst.windowSeconds } : null,
    requests_per_second: {
      window_seconds: series.length,
      average: Number((series.reduce((a, b) => a + b, 0) / series.length).toFixed(3)),
      series,
      // In the classes' order (Object.entries would put the integer-like key '429' first).
      by_class: STATUS_CLASSES.map((status_class) => ({ status_class, series: byClass[status_class] })),
    },
  };
}
