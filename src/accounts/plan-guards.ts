import { countWebhookEndpoints } from '../store/plan-counts.js';
import { currentAccount } from './current.js';
import { planLimitError } from '../domain/plans.js';

/**
 * The limits a plan puts on single calls (docs/accounts.md#plans-and-the-trial), checked where the call is served; rate
 * and quota limits are the rate limiter's (each account's follows its plan). 402 plan_limit.
 */
export function checkBulkSize(records: number): void {
  const account = currentAccount();
  if (!account) return;
  const max = account.limits.bulk_records;
  if (records > max) throw planLimitError(account.row.plan, 'bulk_records', `${records} records in one bulk call; at most ${max}`);
}

export function checkWebhookEndpointRoom(): void {
  const account = currentAccount();
  const max = account?.limits.webhook_endpoints;
  if (!account || max === null || max === undefined) return;
  const count = countWebhookEndpoints(account.db);
  if (count >= max) throw planLimitError(account.row.plan, 'webhook_endpoints', `The account has ${count} webhook endpoints; at most ${max}`);
}
