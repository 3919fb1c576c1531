import { describe, expect, it } from 'vitest';
import { BUILT_IN_FIELDS, fieldKeyFor, typeChangeAllowed, typeOfHeldValues } from '../../src/domain/custom-fields.js';
import { Client } from '../../src/schemas/client.js';
import { Deal } from '../../src/schemas/deal.js';
import { Lead } from '../../src/schemas/lead.js';

describe('custom field rules', () => {
  it('knows each object’s built-in fields as its schema names them', () => {
    expect([...BUILT_IN_FIELDS.lead].sort()).toEqual(Object.keys(Lead.unwrap().shape).sort());
    expect([...BUILT_IN_FIELDS.client].sort()).toEqual(Object.keys(Client.unwrap().shape).sort());
    expect([...BUILT_IN_FIELDS.deal].sort()).toEqual(Object.keys(Deal.unwrap().shape).sort());
  });

  it.each([
    ['Company Size', [], 'company_size'],
    ['Größe (€)', [], 'grosse'],
    ['2nd phone', [], 'f_2nd_phone'],
    ['email', ['email'], 'email_2'],
    ['email', ['email', 'email_2'], 'email_3'],
    ['x'.repeat(60), [], 'x'.repeat(50)],
    ['!!!', [], 'f'],
  ])('makes %j a field key apart from %j: %j', (name, taken, expected) => {
    const key = fieldKeyFor(name, new Set(taken));
    expect(key).toBe(expected);
    expect(key).toMatch(/^[a-z][a-z0-9_]{0,49}$/);
  });

  it('infers a type from the kinds of values held', () => {
    expect(typeOfHeldValues(['integer', 'real', 'null'])).toBe('number');
    expect(typeOfHeldValues(['true', 'false'])).toBe('boolean');
    expect(typeOfHeldValues(['integer', 'text'])).toBe('text');
    expect(typeOfHeldValues(['null'])).toBe('text');
  });

  it('allows only the type changes that keep every value valid', () => {
    expect(typeChangeAllowed('text', 'long_text')).toBe(true);
    expect(typeChangeAllowed('long_text', 'text')).toBe(true);
    expect(typeChangeAllowed('select', 'multi_select')).toBe(true);
    expect(typeChangeAllowed('multi_select', 'select')).toBe(false);
    expect(typeChangeAllowed('text', 'number')).toBe(false);
  });
});
