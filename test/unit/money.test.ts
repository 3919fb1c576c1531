import { describe, expect, it } from 'vitest';
import { minorDigits, toMajor, toMinor } from '../../src/domain/money.js';
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
    [0.1 + 0.2, 'EUR', 30],
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
});
