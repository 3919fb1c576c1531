import { stringify } from 'csv-stringify/sync';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CrmClient } from '../../src/client/client.js';
import { CrmApiError } from '../../src/client/errors.js';
import { exportCsv, statePath } from '../../src/sync/export/export.js';
import { exportColumns, rowMaker } from '../../src/sync/flatten.js';

/** exportCsv against a stub client: the CSV it writes, now without csv-stringify, is the same file as before. */
const dir = mkdtempSync(join(tmpdir(), 'crm-export-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lead = (i: number, over: Record<string, unknown> = {}) => ({
  id: `lead_${i}`,
  external_id: `ext-${i}`,
  first_name: `First ${i}`,
  last_name: null,
  email: `l${i}@example.com`,
  phone: null,
  company: null,
  title: null,
  source: 'web',
  status: 'new',
  notes: null,
  tags: ['a', 'b'],
  custom_fields: { score: i },
  converted_client_id: null,
  created_at: '2026-11-21T12:00:00.000Z',
  updated_at: '2026-11-21T12:00:00.000Z',
  ...over,
});

const pages = [
  {
    data: [
      lead(1, { notes: 'two\nlines, a comma and "quotes"', company: 'cr\rhere', title: 'crlf\r\nhere' }),
      lead(2, { first_name: ' spaced ', tags: ['x|y'], custom_fields: { score: 'text', empty: '' } }),
    ],
    next_cursor: 'c1',
  },
  { data: [lead(3, { last_name: 'Zoë €', custom_fields: {} })], next_cursor: null },
];

/** A page as CrmClient.pageBodies yields it: the bytes of its JSON and the cursor read from them. */
const body = (page: { next_cursor: string | null }) => ({ bytes: Buffer.from(JSON.stringify(page)), next_cursor: page.next_cursor });
/** GET /v1/fields of a server before custom field definitions: the export's columns as they were. */
const noDefinitions = async () => {
  throw new CrmApiError(404, 'not_found', 'No such route.', undefined, undefined, {});
};

function stubClient(): CrmClient {
  return {
    all: noDefinitions,
    async *pageBodies(_path: string, _query: unknown, startCursor?: string) {
      for (const page of startCursor === 'c1' ? pages.slice(1) : pages) yield body(page);
    },
  } as unknown as CrmClient;
}

describe('exportCsv', () => {
  it('writes every page as the csv-stringify of its rows, and the state after the last', async () => {
    const out = join(dir, 'leads.csv');
    const report = await exportCsv({ resource: 'leads', out, resume: false }, stubClient());
    expect(report.rows).toBe(3);

    const columns = exportColumns('leads', pages[0]!.data, undefined);
    const toRow = rowMaker('leads', columns);
    const expected = stringify([columns]) + pages.map((p) => stringify(p.data.map(toRow))).join('');
    expect(readFileSync(out, 'utf8')).toBe(expected);
    expect(JSON.parse(readFileSync(statePath(out), 'utf8'))).toMatchObject({ rows: 3, cursor: null, done: true, bytes: Buffer.byteLength(expected) });
  });

  it('escapes what a spreadsheet would run unless raw; --resume goes on as the export started', async () => {
    const hostile = [
      { data: [lead(1, { first_name: '=1+1' })], next_cursor: 'c1' },
      { data: [lead(2, { first_name: '@SUM(A1)' })], next_cursor: null },
    ];
    // The second page fails once: the first run stops after page one, with its state saved.
    let failures = 1;
    const client = {
      all: noDefinitions,
      async *pageBodies(_path: string, _query: unknown, startCursor?: string) {
        if (startCursor !== 'c1') yield body(hostile[0]!);
        if (failures-- > 0) throw new Error('down');
        yield body(hostile[1]!);
      },
    } as unknown as CrmClient;
    const firstNames = (path: string) =>
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[2]);
    for (const raw of [false, true]) {
      failures = 1;
      const out = join(dir, `hostile-${raw}.csv`);
      await expect(exportCsv({ resource: 'leads', out, resume: false, raw }, client)).rejects.toThrow('down');
      await exportCsv({ resource: 'leads', out, resume: true, raw: !raw }, client); // the flag of the resume is not the file's rule
      expect(firstNames(out)).toEqual(raw ? ['=1+1', '@SUM(A1)'] : ["'=1+1", "'@SUM(A1)"]);
    }
  });
});
