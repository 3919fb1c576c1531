import { fieldError } from '../errors.js';

/**
 * Money is stored exactly, as integer minor units; on the wire it is a number in major units.
 * The list is ISO 4217's current codes; minor digits are ISO's (not CLDR's display digits,
 * which differ for e.g. HUF and IDR).
 */
export const CURRENCIES = [
  'AED', 'AFN', 'ALL', 'AMD', 'AOA', 'ARS', 'AUD', 'AWG', 'AZN', 'BAM', 'BBD', 'BDT', 'BGN', 'BHD',
  'BIF', 'BMD', 'BND', 'BOB', 'BRL', 'BSD', 'BTN', 'BWP', 'BYN', 'BZD', 'CAD', 'CDF', 'CHF', 'CLP',
  'CNY', 'COP', 'CRC', 'CUP', 'CVE', 'CZK', 'DJF', 'DKK', 'DOP', 'DZD', 'EGP', 'ERN', 'ETB', 'EUR',
  'FJD', 'FKP', 'GBP', 'GEL', 'GHS', 'GIP', 'GMD', 'GNF', 'GTQ', 'GYD', 'HKD', 'HNL', 'HTG', 'HUF',
  'IDR', 'ILS', 'INR', 'IQD', 'IRR', 'ISK', 'JMD', 'JOD', 'JPY', 'KES', 'KGS', 'KHR', 'KMF', 'KPW',
  'KRW', 'KWD', 'KYD', 'KZT', 'LAK', 'LBP', 'LKR', 'LRD', 'LSL', 'LYD', 'MAD', 'MDL', 'MGA', 'MKD',
  'MMK', 'MNT', 'MOP', 'MRU', 'MUR', 'MVR', 'MWK', 'MXN', 'MYR', 'MZN', 'NAD', 'NGN', 'NIO', 'NOK',
  'NPR', 'NZD', 'OMR', 'PAB', 'PEN', 'PGK', 'PHP', 'PKR', 'PLN', 'PYG', 'QAR', 'RON', 'RSD', 'RUB',
  'RWF', 'SAR', 'SBD', 'SCR', 'SDG', 'SEK', 'SGD', 'SHP', 'SLE', 'SOS', 'SRD', 'SSP', 'STN', 'SVC',
  'SYP', 'SZL', 'THB', 'TJS', 'TMT', 'TND', 'TOP', 'TRY', 'TTD', 'TWD', 'TZS', 'UAH', 'UGX', 'USD',
  'UYU', 'UZS', 'VES', 'VND', 'VUV', 'WST', 'XAF', 'XCD', 'XCG', 'XOF', 'XPF', 'YER', 'ZAR', 'ZMW',
  'ZWG',
] as const;

export type Currency = (typeof CURRENCIES)[number];

export const ZERO_DIGITS: ReadonlySet<string> = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
export const THREE_DIGITS: ReadonlySet<string> = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

export function minorDigits(currency: string): number {
  if (ZERO_DIGITS.has(currency)) return 0;
  if (THREE_DIGITS.has(currency)) return 3;
  return 2;
}

/** Major units to the nearest minor units, unchecked: for amounts the API has already accepted. */
export function roundToMinor(value: number, currency: string): number {
  return Math.round(value * 10 ** minorDigits(currency));
}

/** Major units to exact minor units; a value with more decimals than the currency has is refused. */
export function toMinor(value: number, currency: string, path: string): number {
  const digits = minorDigits(currency);
  const scaled = value * 10 ** digits;
  const minor = roundToMinor(value, currency);
  // Binary floats make 19.99 * 100 = 1998.9999999999998: accept that, refuse 19.999.
  if (Math.abs(scaled - minor) > 1e-6 * Math.max(1, Math.abs(scaled))) {
    throw fieldError(path, 'too_many_decimals', `${currency} allows at most ${digits} decimal place(s).`);
  }
  if (!Number.isSafeInteger(minor)) throw fieldError(path, 'too_big', 'The amount is too large.');
  return minor;
}

/**
 * Exact minor units to the nearest number in major units. One division is enough: IEEE division
 * of two exact integers is correctly rounded, so 1999 / 100 is the very number "19.99" parses to
 * (the lists made by SQLite divide the same way: store/money-sql.ts).
 */
export function toMajor(minor: number, currency: string): number {
  const digits = minorDigits(currency);
  return digits === 0 ? minor : minor / 10 ** digits;
}

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
