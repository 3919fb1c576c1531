import { describe, expect, it } from 'vitest';
import type { FieldDef } from '../../src/sync/fields/definitions.js';
import { cellToValue, invalidValue, valueToCell } from '../../src/sync/fields/field-cells.js';
import { FieldIndex } from '../../src/sync/fields/field-index.js';
import { ColumnSummary } from '../../src/sync/fields/infer.js';
import { Masker } from '../../src/sync/mask/rules.js';

/** Custom field cells in sync (docs/sync.md#custom-fields): read and written by type, types read from a column. */
const field = (type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({ key: 'k', label: 'K', type, options: null, decimals: null, ...extra });
const options = (...values: string[]) => values.map((value) => ({ value, label: value[0]!.toUpperCase() + value.slice(1) }));
const read = (f: FieldDef, cell: string) => {
  const r = cellToValue(f, cell);
  return r.ok ? r.value : `error: ${r.message}`;
};

describe('cells by type', () => {
  it('reads each type, and refuses what the server would', () => {
    expect(read(field('number'), ' 1234.5 ')).toBe(1234.5);
    expect(read(field('number'), '1,234')).toMatch(/^error: "1,234" is not a number/);
    expect(read(field('number', { decimals: 0 }), '2.5')).toMatch(/more than 0 decimal/);
    expect([read(field('boolean'), 'TRUE'), read(field('boolean'), 'no'), read(field('boolean'), '1')]).toEqual([true, false, true]);
    expect(read(field('date'), '2026-02-30')).toMatch(/not a date/);
    expect(read(field('datetime'), '2026-11-28 09:30:00+01:00')).toBe('2026-11-28T09:30:00+01:00');
    expect(read(field('datetime'), '2026-11-28 09:30')).toMatch(/with its offset/); // no zone: not a moment
    expect(read(field('url'), 'ftp://x.example')).toMatch(/http or https/);
    expect(read(field('email'), 'anna@münchen.example')).toBe('anna@münchen.example');
    expect(read(field('text'), ' kept as is ')).toBe(' kept as is ');
    expect(read(field('text'), 'x'.repeat(1001))).toMatch(/at most 1000/);
  });

  it('a select by value or label, ignoring case and spacing; a multi_select split on ;', () => {
    const select = field('select', { options: options('sales_qualified', 'lead') });
    expect([read(select, 'Sales_qualified'), read(select, 'sales qualified'), read(select, 'Lead')]).toEqual(['sales_qualified', 'sales_qualified', 'lead']);
    expect(read(select, 'Partner')).toMatch(/not an option of this select: sales_qualified \(Sales_qualified\), lead \(Lead\)/);
    const multi = field('multi_select', { options: [...options('platform', 'services'), { value: 'a;b', label: 'A or B' }] });
    expect(read(multi, 'Platform; services;platform')).toEqual(['platform', 'services']);
    expect(read(multi, 'platform, services')).toEqual(['platform', 'services']); // Pipedrive's commas, when every part is an option
    expect(read(multi, 'a;b')).toEqual(['a;b']); // one option's own text first
    expect(read(multi, '["a;b","services"]')).toEqual(['a;b', 'services']);
    expect(read(multi, 'platform;training')).toMatch(/"training" is not an option/);
  });

  it('writes every value so that it reads back the same', () => {
    const multi = field('multi_select', { options: [...options('platform', 'services'), { value: 'a;b', label: 'A or B' }, { value: '[x', label: 'X' }] });
    for (const value of [['platform', 'services'], ['a;b', 'platform'], ['[x'], []]) {
      const cell = valueToCell(multi, value);
      expect(value.length ? read(multi, cell) : cell).toEqual(value.length ? value : '');
    }
    expect(valueToCell(multi, ['platform', 'services'])).toBe('platform;services');
    expect(valueToCell(field('number'), 0)).toBe('0');
    expect(read(field('boolean'), valueToCell(field('boolean'), false))).toBe(false);
  });

  it('checks the values of the custom_fields JSON column', () => {
    expect(invalidValue(field('number'), '5')).toMatch(/expected a number/);
    expect(invalidValue(field('select', { options: options('a') }), 'a')).toBeUndefined();
    expect(invalidValue(field('multi_select', { options: options('a') }), ['a', 'b'])).toMatch(/list of option values/);
    expect(invalidValue(field('date'), null)).toBeUndefined();
  });
});

describe('columns to fields', () => {
  it('by key, custom.<key> or label, ignoring case and spacing; an ambiguous label is a usage error', () => {
    const index = new FieldIndex([field('select', { key: 'lifecycle_stage', label: 'Lifecycle stage' }), field('text', { key: 'stage_note', label: 'Stage' })]);
    for (const column of ['lifecycle_stage', 'Lifecycle Stage', 'custom.lifecycle_stage', 'LIFECYCLE-STAGE'])
      expect(index.find(column)?.key).toBe('lifecycle_stage');
    expect(index.find('Stage')?.key).toBe('stage_note');
    expect(index.find('Country')).toBeUndefined();
    const twins = new FieldIndex([field('text', { key: 'a', label: 'Region' }), field('text', { key: 'b', label: 'region' })]);
    expect(() => twins.find('Region')).toThrow(/label of 2 fields \(a, b\)/);
  });
});

describe('types read from a column', () => {
  const typeOf = (...cells: string[]) => {
    const summary = new ColumnSummary();
    for (const cell of cells) summary.add(cell);
    return summary.type();
  };
  it('the first type every filled cell fits; a select of repeating values; else text', () => {
    expect(typeOf('12', '', '-3.5')).toBe('number');
    expect(typeOf('00950', '12', '00950')).toBe('select'); // a code with a leading zero is no number
    expect(typeOf('true', 'No', 'yes')).toBe('boolean');
    expect(typeOf('2026-01-05', '2026-02-01')).toBe('date');
    expect(typeOf('2026-01-05T09:12:00Z', '2026-01-05 10:00:00+01:00')).toBe('datetime');
    expect(typeOf('2026-01-05 09:12', '2026-02-11 14:00')).toBe('text'); // no offset
    expect(typeOf('a@x.example', 'b@y.example')).toBe('email');
    expect(typeOf('https://x.example', 'http://y.example/p')).toBe('url');
    expect(typeOf('Lead', 'Customer', 'Lead')).toBe('select');
    expect(typeOf('Ada', 'Grace', 'Alan')).toBe('text'); // no value repeats
    expect(typeOf(...Array.from({ length: 120 }, (_, i) => `v${i % 51}`))).toBe('text'); // 51 distinct: too many for a select
    expect(typeOf(...Array.from({ length: 120 }, (_, i) => `v${i % 50}`))).toBe('select');
    expect(typeOf('x'.repeat(1001), 'y')).toBe('long_text');
  });

  it('keeps at most 51 distinct values, whatever the column holds', () => {
    const summary = new ColumnSummary();
    for (let i = 0; i < 10_000; i++) summary.add(`value ${i}`);
    expect(summary.distinct.size).toBe(51);
  });
});

describe('masking custom fields by type', () => {
  it('fakes text-like values and keeps select, multi_select, number, boolean, date and datetime', () => {
    const masker = new Masker(Buffer.alloc(32, 7), { mode: 'default', rules: new Map() });
    masker.useFieldTypes(
      'clients',
      new Map([
        ['industry', 'select'],
        ['lines', 'multi_select'],
        ['since', 'date'],
        ['at', 'datetime'],
        ['vip', 'boolean'],
        ['size', 'number'],
        ['note', 'text'],
        ['billing', 'email'],
        ['site', 'url'],
      ] as const),
    );
    const custom = {
      industry: 'logistics',
      lines: ['platform'],
      since: '2020-01-01',
      at: '2026-01-05T09:12:00Z',
      vip: true,
      size: 12,
      note: 'Call Anna Schmidt',
      billing: 'anna@acme.de',
      site: 'https://acme.de',
    };
    const masked = masker.mask('clients', { name: 'Acme', custom_fields: { ...custom } }).custom_fields as typeof custom;
    expect(masked).toMatchObject({ industry: 'logistics', lines: ['platform'], since: '2020-01-01', at: '2026-01-05T09:12:00Z', vip: true, size: 12 });
    expect(masked.note).not.toBe(custom.note);
    expect(masked.billing).toMatch(/@example\.(com|org|net)$/);
    expect(masked.site).toMatch(/^https:\/\/.*\.example$/);
  });
});
