import { describe, expect, it } from 'vitest';
import { customFromCell, fitsCustomCell, tagsFromCell, tagsToCell } from '../../src/sync/cells.js';
import { exportColumns, rowMaker } from '../../src/sync/flatten.js';
import { mapHeader, parseMapOption } from '../../src/sync/import/mapping.js';
import { rowToRecord } from '../../src/sync/import/to-record.js';

describe('cells', () => {
  it('joins tags with | and falls back to JSON when a tag needs it; both read back the same', () => {
    for (const tags of [[], ['vip'], ['a', 'b c'], ['a|b', 'c'], ['[x]'], ['["json"]', 'y']]) {
      expect(tagsFromCell(tagsToCell(tags))).toEqual(tags);
    }
    expect(tagsToCell(['a', 'b'])).toBe('a|b');
    expect(tagsToCell(['a|b'])).toBe('["a|b"]');
    expect(tagsFromCell('[not json')).toEqual(['[not json']);
  });

  it('types custom cells: booleans, canonical numbers, else strings', () => {
    expect(customFromCell('true')).toBe(true);
    expect(customFromCell('false')).toBe(false);
    expect(customFromCell('42')).toBe(42);
    expect(customFromCell('-1.5')).toBe(-1.5);
    for (const text of ['042', '1e3', '1.50', ' 4', 'True', 'abc', '-0']) expect(customFromCell(text)).toBe(text);
  });

  it('knows which custom values survive a cell', () => {
    expect([42, true, 'abc', 3.25].every((v) => fitsCustomCell(v))).toBe(true);
    expect([null, '', '42', 'true', undefined].some((v) => fitsCustomCell(v as never))).toBe(false);
  });
});

describe('rows to records', () => {
  const header = ['id', 'first_name', 'status', 'tags', 'custom.score', 'custom_fields'];
  const targets = mapHeader('leads', header, parseMapOption(undefined), 'upsert').targets;

  it('sends null for an empty nullable cell, skips an empty status and an empty id, types custom values', () => {
    expect(rowToRecord(targets, ['', '', '', '', '', ''])).toEqual({ ok: true, record: { first_name: null, tags: [], custom_fields: {} } });
    expect(rowToRecord(targets, ['lead_1', 'Ada', 'new', 'a|b', '7', '{"plan":"pro","n":null}'])).toEqual({
      ok: true,
      record: { id: 'lead_1', first_name: 'Ada', status: 'new', tags: ['a', 'b'], custom_fields: { score: 7, plan: 'pro', n: null } },
    });
  });

  it('refuses a row with the wrong number of cells, bad custom_fields JSON and a __proto__ custom key', () => {
    expect(rowToRecord(targets, ['x'])).toMatchObject({ ok: false, code: 'invalid_row' });
    expect(rowToRecord(targets, ['', 'A', '', '', '', '[1]'])).toMatchObject({ ok: false, code: 'validation_failed' });
    expect(rowToRecord(targets, ['', 'A', '', '', '', '{"__proto__": 1}'])).toMatchObject({ ok: false, message: /__proto__/ });
  });

  it('makes one primary contact from contact.* cells, none when they are all empty', () => {
    const clientTargets = mapHeader('clients', ['name', 'address.city', 'contact.first_name', 'contact.email'], new Map(), 'upsert').targets;
    expect(rowToRecord(clientTargets, ['Acme', 'Berlin', 'Jana', ''])).toEqual({
      ok: true,
      record: { name: 'Acme', address: { city: 'Berlin' }, contacts: [{ first_name: 'Jana', email: null, is_primary: true }] },
    });
    expect(rowToRecord(clientTargets, ['Acme', '', '', ''])).toEqual({ ok: true, record: { name: 'Acme', address: { city: null } } });
  });
});

describe('export rows', () => {
  it('reads back as the record it was made from (every exported field round-trips)', () => {
    const lead = {
      id: 'lead_1',
      external_id: 'e1',
      first_name: 'Zoë',
      last_name: null,
      email: 'z@example.com',
      phone: null,
      company: 'A, "B"\nC',
      title: null,
      source: 'web',
      status: 'qualified',
      notes: 'line1\nline2',
      tags: ['x|y', 'z'],
      custom_fields: { score: 5, vip: true, code: '0042', text: '42', none: null, empty: '' },
      converted_client_id: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
    };
    const columns = exportColumns('leads', [lead], undefined);
    expect(columns).toEqual(expect.arrayContaining(['custom.score', 'custom.vip', 'custom.code', 'custom_fields']));
    expect(columns).not.toContain('custom.text'); // "42" would come back as a number
    const row = rowMaker('leads', columns)(lead);
    const back = rowToRecord(mapHeader('leads', columns, new Map(), 'upsert').targets, row);
    const { created_at, updated_at, converted_client_id, ...writable } = lead;
    expect(back).toEqual({ ok: true, record: writable });
  });

  it('puts the primary contact in contact.* columns and flattens the address', () => {
    const client = {
      id: 'cli_1',
      name: 'Acme',
      address: { line1: 'Main 1', city: 'Berlin', line2: null, region: null, postal_code: null, country: 'DE' },
      contacts: [
        { first_name: 'Not', is_primary: false },
        { first_name: 'Jana', email: 'j@a.example', is_primary: true },
      ],
    };
    const columns = exportColumns('clients', [client], ['name', 'address.city', 'contact.first_name', 'contact.email']);
    expect(rowMaker('clients', columns)(client)).toEqual(['Acme', 'Berlin', 'Jana', 'j@a.example']);
    expect(() => exportColumns('clients', [], ['name', 'shoe_size'])).toThrow(/not a clients column/);
  });
});
