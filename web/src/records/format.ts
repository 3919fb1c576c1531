// The dashboard's one place that turns API values into text a person reads: money in the record's
// currency, times and dates in the user's locale. Pure functions over Intl (tested in
// test/unit/web-format.test.ts); `locale` is left out in the app, so the browser's own is used.
import { minorDigits } from '../../../src/domain/money.js';

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * A money amount as the API sends it (a number in major units, API.md §1) in its currency: 2717000
 * JPY → "¥2,717,000", 19.5 EUR → "€19.50". Exactly the currency's ISO minor digits, the precision
 * it is stored with (CLDR shows e.g. HUF without its two).
 */
export function formatMoney(value: number, currency: string, locale?: string): string {
  const key = `${locale ?? ''}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const digits = minorDigits(currency);
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    } catch {
      // A code this browser's Intl does not know: the number, then the code.
      const plain = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
      return `${plain.format(value)} ${currency}`;
    }
    moneyFormats.set(key, format);
  }
  return format.format(value);
}

/** One minor unit of a currency, the step of a money input: "0.01" for EUR, "1" for JPY. */
export function minorStep(currency: string): string {
  const digits = minorDigits(currency);
  return digits === 0 ? '1' : `0.${'0'.repeat(digits - 1)}1`;
}

/** Totals per currency, as a board column or a client's invoices need: "€1,200.00 · $50.00". */
export function formatTotals(amounts: { value: number; currency: string }[], locale?: string): string {
  const sums = new Map<string, number>();
  for (const a of amounts) sums.set(a.currency, (sums.get(a.currency) ?? 0) + a.value);
  return [...sums].map(([currency, sum]) => formatMoney(sum, currency, locale)).join(' · ');
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

/** A probability 0..1 as a percentage: 0.25 → "25%". */
export function formatPercent(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(value);
}

/** A quantity (line items): up to 3 decimals, grouped. */
export function formatQuantity(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(value);
}

/** "Euro" for EUR, in the user's language (for the currency picker); the code when Intl does not know it. */
export function currencyName(code: string, locale?: string): string {
  try {
    return new Intl.DisplayNames(locale ? [locale] : undefined, { type: 'currency' }).of(code) ?? code;
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
