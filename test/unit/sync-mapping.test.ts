import { describe, expect, it } from 'vitest';
import { mapHeader, parseMapOption } from '../../src/sync/import/mapping.js';
import { SyncUsageError } from '../../src/sync/errors.js';

const map = (header: string[], options: { map?: string; mode?: 'upsert' | 'create'; resource?: 'leads' | 'clients' } = {}) =>
  mapHeader(options.resource ?? 'leads', header, parseMapOption(options.map), options.mode ?? 'upsert').targets;

describe('CSV header mapping', () => {
  it('matches names ignoring case, spaces, underscores, dashes and dots', () => {
    expect(map(['First Name', 'LAST-NAME', 'e_mail', 'External ID'])).toEqual([
      { kind: 'field', field: 'first_name', nullable: true },
      { kind: 'field', field: 'last_name', nullable: true },
      { kind: 'field', field: 'email', nullable: true },
      { kind: 'field', field: 'external_id', nullable: true },
    ]);
    expect(map(['Name', 'Address City', 'contact.first_name', 'Contact E-Mail'], { resource: 'clients' })).toEqual([
      { kind: 'field', field: 'name', nullable: false },
      { kind: 'address', field: 'city' },
      { kind: 'contact', field: 'first_name' },
      { kind: 'contact', field: 'email' },
    ]);
  });

  it('knows which fields cannot be null (from the schema): status is skipped when empty, not cleared', () => {
    const [status, source] = map(['status', 'source']);
    expect(status).toMatchObject({ kind: 'field', field: 'status', nullable: false });
    expect(source).toMatchObject({ kind: 'field', field: 'source', nullable: true });
  });

  it('reads custom.<name> as a custom field, keeping the name as written, and the export columns', () => {
    expect(map(['custom.Favourite Colour', 'custom_fields', 'tags', 'id', 'created_at', 'converted_client_id'])).toEqual([
      { kind: 'custom', key: 'Favourite Colour' },
      { kind: 'custom_json' },
      { kind: 'tags' },
      { kind: 'id' },
      { kind: 'ignored' },
      { kind: 'ignored' },
    ]);
  });

  it('refuses unknown columns, naming them and the way out', () => {
    expect(() => map(['first_name', 'Shoe Size', 'Fax'])).toThrow(SyncUsageError);
    expect(() => map(['first_name', 'Shoe Size', 'Fax'])).toThrow(/"Shoe Size", "Fax".*--map/);
  });

  it('--map renames, keeps as custom field, or drops columns', () => {
    const targets = map(['Vorname', 'Shoe Size', 'Fax'], { map: 'Vorname=first_name, Shoe Size=custom.shoe,Fax=' });
    expect(targets).toEqual([{ kind: 'field', field: 'first_name', nullable: true }, { kind: 'custom', key: 'shoe' }, { kind: 'ignored' }]);
    expect(() => map(['Vorname'], { map: 'Vorname=vorname' })).toThrow(/not a leads column/);
    expect(() => map(['first_name'], { map: 'Nope=email' })).toThrow(/does not have: "Nope"/);
    expect(() => parseMapOption('just-a-name')).toThrow(/pairs/);
    expect(parseMapOption('A=B=c')).toEqual(new Map([['A=B', 'c']]));
  });

  it('refuses two columns for one field, an id column in create mode, and a clients file without name', () => {
    expect(() => map(['email', 'E-Mail'])).toThrow(/both map to email/);
    expect(() => map(['id', 'first_name'], { mode: 'create' })).toThrow(/--mode create cannot take an id column/);
    expect(() => map(['email'], { resource: 'clients' })).toThrow(/needs a name column/);
  });
});
