import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatCount, formatMoney, formatPercent, minorStep, personName } from '../../web/src/records/format.js';

/** The dashboard's one formatter module (web/src/records/format.ts): what a person reads for API values. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('money', () => {
  it('formats major units in the record currency, with exactly its ISO minor digits', () => {
    expect(formatMoney(2717000, 'JPY', 'en-US')).toBe('¥2,717,000');
    expect(formatMoney(19.5, 'EUR', 'en-US')).toBe('€19.50');
    expect(plain(formatMoney(19.5, 'EUR', 'de-DE'))).toBe('19,50 €');
    expect(plain(formatMoney(1.234, 'KWD', 'en-US'))).toBe('KWD 1.234');
    // CLDR would show HUF without decimals; the API stores two, so two are shown.
    expect(plain(formatMoney(1500.25, 'HUF', 'en-US'))).toBe('HUF 1,500.25');
  });

  it('writes counts grouped, in the locale (usage, limits)', () => {
    expect(formatCount(10000, 'en-US')).toBe('10,000');
    expect(plain(formatCount(100000, 'de-DE'))).toBe('100.000');
  });

  it('steps a money input by one minor unit', () => {
    expect(minorStep('EUR')).toBe('0.01');
    expect(minorStep('JPY')).toBe('1');
    expect(minorStep('KWD')).toBe('0.001');
  });
});

describe('dates and times', () => {
  it('shows a time in the locale and keeps the exact UTC time for the title', () => {
    const { text, exact } = formatDateTime('2026-11-21T12:00:00.000Z', 'en-US');
    expect(exact).toBe('2026-11-21T12:00:00.000Z');
    // In the machine's time zone: noon UTC is Nov 21 or 22 somewhere, on the hour (or half hour) everywhere.
    expect(text).toMatch(/^Nov 2[12], 2026, \d{1,2}:[03]0\s?[AP]M$/);
    expect(formatDateTime('2026-11-21T12:00:00.000Z', 'en-US', true).text).toMatch(/^Nov 2[12], 2026$/);
  });

  it('shows a calendar date as that day in every time zone', () => {
    expect(formatDate('2026-01-01', 'en-US')).toBe('Jan 1, 2026');
    expect(formatDate('2026-12-31', 'de-DE')).toBe('31.12.2026');
  });

  it('returns what it cannot read unchanged', () => {
    expect(formatDate('not a date', 'en-US')).toBe('not a date');
    expect(formatDateTime('nope', 'en-US')).toEqual({ text: 'nope', exact: 'nope' });
  });
});

describe('names and numbers', () => {
  it('joins a name from its parts', () => {
    expect(personName({ first_name: 'Ada', last_name: 'Lovelace' })).toBe('Ada Lovelace');
    expect(personName({ first_name: null, last_name: 'Hopper' })).toBe('Hopper');
    expect(personName({})).toBe('');
  });

  it('shows probabilities as percentages', () => {
    expect(formatPercent(0.25, 'en-US')).toBe('25%');
  });
});
