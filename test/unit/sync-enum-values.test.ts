import { describe, expect, it } from 'vitest';
import { LEAD_SOURCES, LEAD_STATUSES } from '../../src/schemas/lead.js';
import { mapHeader, parseMapOption } from '../../src/sync/import/mapping.js';
import { rowToRecord } from '../../src/sync/import/to-record.js';

/**
 * Enum cells as spreadsheets hold them (`New`, `CONTACTED`, `Cold Call`): read as the API's values,
 * ignoring case, spaces, underscores and hyphens, as the --from presets do. What matches nothing
 * is sent unchanged, so the server names the allowed values.
 */
const leads = mapHeader('leads', ['first_name', 'status', 'source'], parseMapOption(undefined), 'upsert').targets;
const record = (status: string, source: string) => {
  const result = rowToRecord(leads, ['Ada', status, source]);
  if (!result.ok) throw new Error(result.message);
  return result.record;
};

describe('CSV enum values', () => {
  it('reads any case and spacing of a lead status or source as the API spells it', () => {
    expect(record('New', 'Cold Call')).toEqual({ first_name: 'Ada', status: 'new', source: 'cold_call' });
    expect(record('CONTACTED', 'cold-call')).toEqual({ first_name: 'Ada', status: 'contacted', source: 'cold_call' });
    expect(record(' Qualified ', 'COLD_CALL')).toEqual({ first_name: 'Ada', status: 'qualified', source: 'cold_call' });
    for (const status of LEAD_STATUSES) expect(record(status.toUpperCase(), 'web').status).toBe(status);
    for (const source of LEAD_SOURCES) expect(record('new', source.replace('_', ' ').toUpperCase()).source).toBe(source);
  });

  it('leaves a value that names nothing as it is (the server refuses it with the allowed values)', () => {
    expect(record('Hot', 'Fax')).toMatchObject({ status: 'Hot', source: 'Fax' });
  });

  it('maps client kind too, and leaves free-text fields alone', () => {
    const clients = mapHeader('clients', ['name', 'kind', 'address.city'], parseMapOption(undefined), 'upsert').targets;
    const result = rowToRecord(clients, ['NEW Company', 'Person', 'new']);
    expect(result).toEqual({ ok: true, record: { name: 'NEW Company', kind: 'person', address: { city: 'new' } } });
  });
});
