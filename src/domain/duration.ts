/**
 * Durations as people type them: a number and a unit, s, m, h or d. The one parser behind the
 * test clocks' `advance` (docs/accounts.md#test-clocks), `crm sandbox clock advance` and every
 * `--since` (docs/webhooks.md#from-the-terminal-webhooks-events-trigger-listen, docs/sync.md).
 * Plain data and no I/O, so the CLI loads it without zod.
 */

/** Milliseconds in one of each unit. */
export const DURATION_UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export interface DurationForm {
  /** Whole numbers only ("36h"), or also a fraction ("1.5h"). */
  fractions: boolean;
  /** Several parts added up ("1d12h"), or one part only. */
  combined: boolean;
}

/**
 * The test clocks' form: whole numbers, parts may be combined ("7d", "36h", "90m", "30s", "1d12h").
 * `--since` takes one part that may have a fraction ("30m", "1.5h"), after trimming spaces.
 */
export const CLOCK_DURATION: DurationForm = { fractions: false, combined: true };
export const SINCE_DURATION: DurationForm = { fractions: true, combined: false };

/** `text` as milliseconds, or undefined when it is not a duration of that form. */
export function parseDuration(text: string, form: DurationForm = CLOCK_DURATION): number | undefined {
  const part = form.fractions ? String.raw`(\d+(?:\.\d+)?)([smhd])` : String.raw`(\d+)([smhd])`;
  if (!new RegExp(form.combined ? `^(?:${part})+$` : `^${part}$`).test(text)) return undefined;
  let ms = 0;
  for (const [, n, unit] of text.matchAll(new RegExp(part, 'g'))) ms += Number(n) * DURATION_UNIT_MS[unit!]!;
  return ms;
}
