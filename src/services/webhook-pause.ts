import { deleteMeta, readMeta, writeMeta } from '../store/meta.js';
import type { Ctx } from './context.js';

/**
 * Pausing webhook deliveries in a sandbox (POST /_sandbox/webhook_pause), so that a bulk fill such
 * as `crm sync copy` does not send every endpoint one delivery per copied record. While paused,
 * events are recorded as ever (GET /v1/events, the event stream) but get no deliveries, now or
 * later: resuming does not replay them, or the storm would only be postponed.
 *
 * A pause is a lease with an end (at most a day): a copy that is killed leaves deliveries paused
 * only until then, never for good. It is measured on the machine's clock, not the account's, so
 * moving the account's clock (docs/accounts.md#test-clocks) neither ends nor extends it.
 */
const KEY = 'webhooks_paused_until';
export const MAX_PAUSE_SECONDS = 86_400;

export function pausedUntil(ctx: Ctx): string | null {
  const value = readMeta(ctx.db, KEY);
  return value && Date.parse(value) > Date.now() ? value : null;
}

export function pauseDeliveries(ctx: Ctx, seconds: number): string {
  const until = new Date(Date.now() + Math.min(seconds, MAX_PAUSE_SECONDS) * 1000).toISOString();
  writeMeta(ctx.db, KEY, until);
  return until;
}

export function resumeDeliveries(ctx: Ctx): void {
  deleteMeta(ctx.db, KEY);
}
