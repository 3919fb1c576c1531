import { fieldError } from '../errors.js';

/**
 * Money is stored exactly, as integer minor units; on the wire it is a number in major units.
 * The list is ISO 4217's current codes; minor digits are ISO's (not CLDR's display digits,
 * which differ for e.g. HUF and IDR).
 */
// biome-ignore format: ISO's list reads as a table, not one code a line
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

export const ZERO_DIGITS: ReadonlySet<string> = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
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

/**
 * A number's decimal text as JSON.stringify prints it (the shortest that parses back to it), split
 * into its digits and where the decimal point goes: 5000.005 → 5000005 and 3 decimals, 1e-7 → 1 and 7,
 * 1.5e+21 → 15 and -20 (a negative count of decimals: the digits are followed by zeros).
 */
function decimalText(value: number): { digits: string; decimals: number } {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(value)));
  if (!match) throw new Error(`Not a finite number: ${value}`);
  const fraction = match[2] ?? '';
  return { digits: match[1]! + fraction, decimals: fraction.length - Number(match[3] ?? 0) };
}

/**
 * Major units to exact minor units; a value with more decimals than the currency has is refused.
 * The check reads the number's decimal text, not a scaled float: a tolerance on `value * 100`
 * grows with the amount, so past ~500,000 minor units 5000.005 EUR was rounded to 5000.01 in
 * silence (docs/reference/basics.md, "Money"). So 0.1 + 0.2 sent as 0.30000000000000004 is
 * refused too: it is what the client's JSON said.
 */
export function toMinor(value: number, currency: string, path: string): number {
  const allowed = minorDigits(currency);
  const { digits, decimals } = decimalText(value);
  if (decimals > allowed) {
    throw fieldError(path, 'too_many_decimals', `${currency} allows at most ${allowed} decimal place(s); ${value} has ${decimals}.`);
  }
  const minor = BigInt(digits) * 10n ** BigInt(allowed - decimals);
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw fieldError(path, 'too_big', 'The amount is too large.');
  return Number(value < 0 ? -minor : minor);
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

/**
 * A sum of minor units (a BigInt: sums outgrow 2^53 and SQLite's 2^63) in major units, exactly: a
 * number while the minor units are a safe integer (so a JSON number is exact), else the decimal
 * string ("12000000000000.003"), which JSON cannot round (docs/reference/basics.md, "Money").
 */
export function sumToMajor(minor: bigint, currency: string): number | string {
  if (minor <= BigInt(Number.MAX_SAFE_INTEGER) && minor >= -BigInt(Number.MAX_SAFE_INTEGER)) return toMajor(Number(minor), currency);
  const digits = minorDigits(currency);
  const sign = minor < 0n ? '-' : '';
  const text = (minor < 0n ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = text.slice(text.length - digits).replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The inverse of sumToMajor, for sums the API sent: exact minor units of a number or a decimal string. */
export function sumToMinor(value: number | string, currency: string): bigint {
  if (typeof value === 'number') return BigInt(roundToMinor(value, currency));
  const digits = minorDigits(currency);
  const [whole = '0', fraction = ''] = value.replace(/^-/, '').split('.');
  const minor = BigInt(whole + fraction.padEnd(digits, '0').slice(0, digits));
  return value.startsWith('-') ? -minor : minor;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * A money amount as the API sends it (a number in major units, docs/reference/basics.md#ids-times-money) in its currency: 2717000
 * JPY → "¥2,717,000", 19.5 EUR → "€19.50". Exactly the currency's ISO minor digits, the precision
 * it is stored with (CLDR shows e.g. HUF without its two). A sum past 2^53 minor units comes as a
 * decimal string (sumToMajor), which Intl formats exactly.
 */
export function formatMoney(value: number | string, currency: string, locale?: string): string {
  const key = `${locale ?? ''}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const digits = minorDigits(currency);
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    } catch {
      // A code this browser's Intl does not know: the number, then the code.
      const plain = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
      return `${plain.format(value as number)} ${currency}`;
    }
    moneyFormats.set(key, format);
  }
  // `as number`: TypeScript's ES2022 lib does not yet type the decimal strings Intl formats exactly.
  return format.format(value as number);
}
