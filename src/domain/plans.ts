import { parsePolicy, type Policy } from './rate-limit.js';
import { ApiError } from '../errors.js';

/**
 * Plans (docs/accounts.md#plans-and-the-trial). `free` has fixed limits; `trial` and `pro` get the limits the sandbox was
 * started with (`--rate-limit`, `--quota`). A trial lasts 7 days of the account's clock.
 */
export const PLANS = ['free', 'trial', 'pro'] as const;
export type Plan = (typeof PLANS)[number];
export const TRIAL_DAYS = 7;

export interface StartLimits {
  rateLimit: string;
  quota: string;
}

export interface PlanLimits {
  rate_limit: { limit: number; window_seconds: number } | null;
  quota: { limit: number; window_seconds: number } | null;
  webhook_endpoints: number | null;
  bulk_records: number;
}

const FREE = { rateLimit: '100/10s', quota: '250000/1d', webhookEndpoints: 2, bulkRecords: 100 };
const PAID_BULK_RECORDS = 1000;

/** The rate-limit policies of a plan, named as the RateLimit-Policy header names them. */
export function planPolicies(plan: Plan, start: StartLimits): Policy[] {
  const { rateLimit, quota } = plan === 'free' ? FREE : start;
  return [parsePolicy('burst', rateLimit), parsePolicy('daily', quota)].filter((p): p is Policy => p !== null);
}

export function planLimits(plan: Plan, start: StartLimits): PlanLimits {
  const policies = planPolicies(plan, start);
  const shown = (name: string) => {
    const p = policies.find((q) => q.name === name);
    return p ? { limit: p.quota, window_seconds: p.windowSeconds } : null;
  };
  return {
    rate_limit: shown('burst'),
    quota: shown('daily'),
    webhook_endpoints: plan === 'free' ? FREE.webhookEndpoints : null,
    bulk_records: plan === 'free' ? FREE.bulkRecords : PAID_BULK_RECORDS,
  };
}

/** 402 plan_limit naming the limit, and what lifts it. */
export function planLimitError(plan: Plan, limit: string, detail: string): ApiError {
  const lift = plan === 'free' ? ' Start a 7-day trial (POST /v1/account/trial) for the paid limits.' : '';
  return new ApiError('plan_limit', `${detail}: the ${plan} plan's ${limit} limit.${lift}`, {
    errors: [{ path: '', code: limit, message: `Limit of the ${plan} plan` }],
  });
}
