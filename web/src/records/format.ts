// The dashboard's one place that turns API values into text a person reads: money in the record's
// currency, times and dates in the user's locale. Pure functions over Intl (tested in
// test/unit/web-format.test.ts); `locale` is left out in the app, so the browser's own is used.
import { minorDigits } from '../../../src/domain/money.js';

// Money as people read it is one function for the dashboard and the payment page (src/http/pay-page.ts).
export { formatMoney } from '../../../src/domain/money.js';

/** One minor unit of a currency, the step of a money input: "0.01" for EUR, "1" for JPY. */
export function minorStep(currency: string): string {
  const digits = minorDigits(currency);
  return digits === 0 ? '1' : `0.${'0'.repeat(digits - 1)}1`;
}

/** A count as a person reads it: 10000 → "10,000" in the user's locale. */
export function formatCount(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

/**
 * A point in time: the readable form, and the exact UTC time for a `title` (shown on hover).
 * `dateOnly` drops the time of day (list columns, where the day is what a person scans for).
 */
export function formatDateTime(iso: string, locale?: string, dateOnly = false): { text: string; exact: string } {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return { text: iso, exact: iso };
  const text = new Intl.DateTimeFormat(locale, dateOnly ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' }).format(time);
  return { text, exact: time.toISOString() };
}

/** A calendar date (YYYY-MM-DD) in the user's locale. It names a day, not an instant: read in UTC so no time zone moves it. */
export function formatDate(ymd: string, locale?: string): string {
  const time = new Date(`${ymd}T00:00:00Z`);
  if (Number.isNaN(time.getTime())) return ymd;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(time);
}

/**
 * A custom number field's value, grouped: with exactly `decimals` decimals when the field says
 * (1234.5 with 2 → "1,234.50"), else as many as it has (up to 6, what a field may ask for).
 */
export function formatNumber(value: number, decimals?: number, locale?: string): string {
  const digits = decimals === undefined ? { maximumFractionDigits: 6 } : { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  return new Intl.NumberFormat(locale, digits).format(value);
}

/** The step of a number input for a field with `decimals` decimals: "1", "0.01"; "any" when the field allows any. */
export function decimalStep(decimals?: number): string {
  if (decimals === undefined) return 'any';
  return decimals === 0 ? '1' : `0.${'0'.repeat(decimals - 1)}1`;
}

/** A probability 0..1 as a percentage: 0.25 → "25%". */
export function formatPercent(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(value);
}

/** A quantity (line items): up to 3 decimals, grouped. */
export function formatQuantity(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(value);
}

const currencyNames = new Map<string, Intl.DisplayNames>();

/**
 * "Euro" for EUR, in the user's language (for the currency picker); the code when Intl does not know
 * it. One Intl.DisplayNames per locale: making one costs ~0.2 ms, and the picker names ~150 codes (30 ms at every start, before).
 */
export function currencyName(code: string, locale?: string): string {
  try {
    let names = currencyNames.get(locale ?? '');
    if (!names) currencyNames.set(locale ?? '', (names = new Intl.DisplayNames(locale ? [locale] : undefined, { type: 'currency' })));
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** A person's name from its parts, or '' when both are empty. */
export function personName(r: { first_name?: string | null; last_name?: string | null }): string {
  return [r.first_name, r.last_name].filter(Boolean).join(' ');
}

/** Today as YYYY-MM-DD in UTC, the form due dates are compared in. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}
