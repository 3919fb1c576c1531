import { parseDuration } from '../domain/duration.js';
import { ApiError, fieldError } from '../errors.js';
import { purgeExpiredEvents } from '../services/event-log.js';
import { recordEvent } from '../services/events.js';
import { purgeExpired } from '../services/idempotency.js';
import { markOverdueInvoices } from '../services/invoices.js';
import { inTransaction } from '../services/transactions.js';
import { signalOutbox } from '../services/outbox-signal.js';
import type { Account } from './account.js';
import type { AccountRegistry } from './registry.js';

/** The account's clock as the API shows it. */
export function clockView(account: Account) {
  return { account_id: account.id, now: new Date(account.ctx.clock()).toISOString(), offset_seconds: Math.round(account.offsetMs / 1000) };
}

/**
 * Moves an account's clock forward (docs/accounts.md#test-clocks: `{advance: "7d"}` or `{to: time}`), then does
 * what came due on the way: the trial's end, overdue invoices, retention, webhook retries.
 */
export function moveClock(accounts: AccountRegistry, account: Account, move: { advance?: string | undefined; to?: string | undefined }) {
  if ((move.advance === undefined) === (move.to === undefined)) throw new ApiError('validation_failed', 'Send either advance (like "7d") or to (a time).');
  const now = account.ctx.clock();
  let target: number;
  if (move.advance !== undefined) {
    const ms = parseDuration(move.advance);
    if (ms === undefined) throw fieldError('advance', 'invalid_duration', 'Expected a duration like 7d, 36h, 90m or 30s.');
    target = now + ms;
  } else {
    target = Date.parse(move.to!);
    if (Number.isNaN(target)) throw fieldError('to', 'invalid_datetime', 'Expected an RFC 3339 time, like 2026-12-01T09:00:00Z.');
    if (target < now) throw fieldError('to', 'backwards', `The clock moves forward only; it is already ${new Date(now).toISOString()}.`);
  }
  account.setClock(target);
  runDue(accounts, account);
  return clockView(account);
}

/** What the account's clock has made due: run after a move and, for real time passing, every minute. */
export function runDue(accounts: AccountRegistry, account: Account): void {
  const ctx = account.ctx;
  const { plan, trial_ends_at: endsAt } = account.row;
  if (plan === 'trial' && endsAt && Date.parse(endsAt) <= ctx.clock()) {
    inTransaction(ctx, () => {
      accounts.update(account, { plan: 'free' });
      recordEvent(ctx, 'account.trial_ended', accountView(account), { plan: 'trial' });
    });
  }
  markOverdueInvoices(ctx);
  purgeExpired(ctx);
  purgeExpiredEvents(ctx);
  signalOutbox(ctx.db); // the worker looks again: retries that fell due go out now
}

/** GET /v1/account's answer (and the object of account.* events). */
export function accountView(account: Account) {
  const { id, name, plan, trial_ends_at, created_at } = account.row;
  return { id, name, plan, trial_ends_at, created_at };
}
