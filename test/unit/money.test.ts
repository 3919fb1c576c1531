import { describe, expect, it } from 'vitest';
import { formatMoney, minorDigits, sumToMajor, sumToMinor, toMajor, toMinor } from '../../src/domain/money.js';
import { ApiError } from '../../src/errors.js';

describe('money', () => {
  it('knows ISO minor digits, not display digits', () => {
    expect(minorDigits('EUR')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(minorDigits('KWD')).toBe(3);
    expect(minorDigits('HUF')).toBe(2); // CLDR shows 0, ISO 4217 says 2
  });

  it.each([
    [19.99, 'EUR', 1999],
    [0.3, 'EUR', 30],
    [5000.01, 'EUR', 500001],
    [123456.78, 'EUR', 12345678],
    [9007199254740.99, 'KWD', 9007199254740990],
    [9999999999999.99, 'EUR', 999999999999999],
    [1e12, 'JPY', 1e12],
    [1234567.89, 'EUR', 123456789],
    [1500, 'JPY', 1500],
    [1.234, 'KWD', 1234],
    [0, 'USD', 0],
  ])('stores %s %s exactly as %s minor units', (value, currency, minor) => {
    expect(toMinor(value, currency, 'value')).toBe(minor);
    expect(toMajor(minor, currency)).toBeCloseTo(value, 9);
  });

  it.each([
    [19.999, 'EUR'],
    [1.5, 'JPY'],
    [1.2345, 'KWD'],
    // A tolerance relative to the amount let these through, rounded, from ~500,000 minor units on.
    [5000.005, 'EUR'],
    [123456.789, 'EUR'],
    [10000000.001, 'EUR'],
    [9999999999999.001, 'EUR'],
    [1000000000.0001, 'KWD'],
    [100000000000.5, 'JPY'],
    [0.1 + 0.2, 'EUR'], // 0.30000000000000004: the text a JSON client sends
    [1e-7, 'USD'],
  ])('refuses %s %s: more decimals than the currency has', (value, currency) => {
    let caught: unknown;
    try {
      toMinor(value, currency, 'value');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).code).toBe('validation_failed');
    expect((caught as ApiError).errors?.[0]).toMatchObject({ path: 'value', code: 'too_many_decimals' });
  });

  it('refuses an amount past 2^53 minor units as too big, never rounded', () => {
    expect(toMinor(9007199254740.99, 'KWD', 'value')).toBe(Number.MAX_SAFE_INTEGER - 1);
    expect(() => toMinor(9007199254740.992, 'KWD', 'value')).toThrow(/too large/);
    expect(() => toMinor(1e21, 'EUR', 'value')).toThrow(/too large/);
  });

  it.each([
    [30n, 'EUR', 0.3],
    [12000000000000003n, 'KWD', '12000000000000.003'],
    [9007199254740991n, 'EUR', 90071992547409.91],
    [9007199254740992n, 'EUR', '90071992547409.92'],
    [9270000000000000000000n, 'KWD', '9270000000000000000'],
    [9007199254740993n, 'JPY', '9007199254740993'],
    [10000000000000000n, 'USD', '100000000000000'],
  ])('sums %s minor %s to %s major units: exact, a string past 2^53', (minor, currency, major) => {
    expect(sumToMajor(minor, currency)).toBe(major);
    expect(sumToMinor(major, currency)).toBe(minor);
  });

  it('formats a decimal-string sum exactly', () => {
    expect(formatMoney('12000000000000.003', 'KWD', 'en-US').replace(/\s/g, ' ')).toBe('KWD 12,000,000,000,000.003');
  });
});
