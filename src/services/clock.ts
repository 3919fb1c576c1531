import type { Ctx } from './context.js';

/** Real time as the credential services see it (Ctx.wallClock). */
export const wallNow = (ctx: Ctx): number => (ctx.wallClock ?? ctx.clock)();

let lastMs = NaN;
let lastIso = '';
/** The clock as RFC 3339. A bulk batch asks thousands of times within one millisecond: reuse the string. */
export function nowIso(ctx: Ctx): string {
  const ms = ctx.clock();
  if (ms !== lastMs) [lastMs, lastIso] = [ms, new Date(ms).toISOString()];
  return lastIso;
}
