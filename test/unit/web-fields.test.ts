import { describe, expect, it } from 'vitest';
import { FIELD_KEY, FIELD_TYPES } from '../../src/domain/custom-fields.js';
import { allowedTypes, moved, suggestKey, suggestValue, TYPE_WORDS } from '../../web/src/fields/field-types.js';
import { customFieldSpec, withCustomFields, type FieldDefinition } from '../../web/src/records/custom-field-specs.js';
import { initialValues, fromLocalInput, missingRequired, toBody, toLocalInput } from '../../web/src/records/form-values.js';
import { formatNumber } from '../../web/src/records/format.js';
import { clients } from '../../web/src/records/resources/clients.js';

/** The Fields page's pure parts and custom fields in the record forms (web/src/fields/, web/src/records/custom-fields.ts). */
const definition = (d: Partial<FieldDefinition> & Pick<FieldDefinition, 'key' | 'type'>): FieldDefinition => ({
  id: `fld_${d.key}`,
  object: 'client',
  label: d.key,
  description: null,
  required: false,
  options: null,
  decimals: null,
  position: 0,
  created_at: '',
  updated_at: '',
  ...d,
});

describe('the Fields page', () => {
  it('suggests a key the API takes from any label', () => {
    expect(suggestKey('Annual revenue (€)')).toBe('annual_revenue');
    expect(suggestKey('Größe & Gewicht')).toBe('grosse_gewicht');
    expect(suggestKey('2nd contact')).toBe('f_2nd_contact');
    expect(suggestKey('!!!')).toBe('');
    for (const label of ['Annual revenue (€)', '2nd contact', 'x'.repeat(80), 'Ünïcödé  field__']) expect(suggestKey(label)).toMatch(FIELD_KEY);
    expect(suggestValue('Health care')).toBe('health_care');
    expect(suggestValue('★')).toBe('★');
  });

  it('names every type in words, and offers only the type changes the API allows', () => {
    expect(Object.keys(TYPE_WORDS).sort()).toEqual([...FIELD_TYPES].sort());
    expect(allowedTypes('text')).toEqual(['text', 'long_text']);
    expect(allowedTypes('select')).toEqual(['select', 'multi_select']);
    expect(allowedTypes('multi_select')).toEqual(['multi_select']);
    expect(allowedTypes('number')).toEqual(['number']);
  });

  it('moves an option up or down the list', () => {
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
  });
});

describe('custom fields in the record forms', () => {
  const spec = withCustomFields(clients, [
    definition({ key: 'industry', type: 'select', options: [{ value: 'sw', label: 'Software' }] }),
    definition({
      key: 'lines',
      type: 'multi_select',
      options: [
        { value: 'a', label: 'A' },
        { value: 'b', label: 'B' },
      ],
    }),
    definition({ key: 'employees', type: 'number', decimals: 0, required: true }),
    definition({ key: 'vip', type: 'boolean' }),
    definition({ key: 'review_at', type: 'datetime' }),
  ]);

  it('come after the built-in fields, before tags and the timestamps, at custom_fields.<key>', () => {
    const keys = spec.fields.map((f) => f.key);
    expect(keys.slice(keys.indexOf('address.country') + 1, keys.indexOf('tags'))).toEqual([
      'custom_fields.industry',
      'custom_fields.lines',
      'custom_fields.employees',
      'custom_fields.vip',
      'custom_fields.review_at',
    ]);
    expect(customFieldSpec(definition({ key: 'x', type: 'long_text', description: 'Why' }))).toMatchObject({ type: 'longtext', hint: 'Why', custom: true });
  });

  it('a create sends what was filled, typed; an unticked yes/no and an empty list are no value', () => {
    const values = { ...initialValues(spec.fields, 'create'), name: 'Acme', 'custom_fields.lines': ['b'], 'custom_fields.employees': '40' };
    expect(toBody(spec.fields, values, 'create')).toEqual({ name: 'Acme', custom_fields: { lines: ['b'], employees: 40 } });
    expect(missingRequired(spec.fields, { ...values, 'custom_fields.employees': '' }, 'create').map((f) => f.key)).toEqual(['custom_fields.employees']);
  });

  it('an edit sends only the changed keys, a cleared one as null; the same instant in another offset is no change', () => {
    const record = {
      name: 'Acme',
      kind: 'company',
      tags: [],
      custom_fields: { industry: 'sw', lines: ['a', 'b'], employees: 40, review_at: '2026-11-28T09:30:00Z' },
    };
    const untouched = initialValues(spec.fields, 'edit', record);
    expect(untouched['custom_fields.review_at']).toBe(toLocalInput('2026-11-28T09:30:00Z'));
    expect(toBody(spec.fields, untouched, 'edit', record)).toEqual({});
    const edited = { ...untouched, 'custom_fields.lines': ['b'], 'custom_fields.industry': '', 'custom_fields.vip': true };
    expect(toBody(spec.fields, edited, 'edit', record)).toEqual({ custom_fields: { lines: ['b'], industry: null, vip: true } });
  });

  it('a datetime-local value goes as RFC 3339 with the browser’s offset, the same instant', () => {
    const sent = fromLocalInput('2026-11-28T09:30');
    expect(sent).toMatch(/^2026-11-2\dT\d\d:\d\d:00(Z|[+-]\d\d:\d\d)$/);
    expect(Date.parse(sent)).toBe(new Date('2026-11-28T09:30').getTime());
  });

  it('numbers show grouped, with the field’s decimals', () => {
    expect(formatNumber(1284500.5, 2, 'en-US')).toBe('1,284,500.50');
    expect(formatNumber(3837, 0, 'de-DE')).toBe('3.837');
    expect(formatNumber(0.125, undefined, 'en-US')).toBe('0.125');
  });
});
