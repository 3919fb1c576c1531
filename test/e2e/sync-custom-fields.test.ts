import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCrm } from '../helpers/cli-process.js';
import { type ApiClient, tempDir } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { FIXTURES, readCsv } from '../helpers/sync.js';

/**
 * `crm sync import|export` with custom field definitions (docs/sync.md#custom-fields): columns
 * fill fields by key or label, cells are typed, columns that fill none stop the import before
 * anything is written, --create-fields defines them (types read from the whole file),
 * --ignore-unknown leaves them out; the export writes a column per field.
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({ rateLimit: '0' }, (s, a) => {
  sandbox = s;
  api = a;
});
const dir = tempDir('crm-sync-fields-');
afterAll(() => dir.remove());
const HUBSPOT = join(FIXTURES, 'fields', 'hubspot-contacts.csv');
const PIPEDRIVE = join(FIXTURES, 'fields', 'pipedrive-persons.csv');

let runs = 0;
const crm = (args: string[]) => runCrm(args, { CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey });
const importLeads = (file: string, ...extra: string[]) => crm(['sync', 'import', 'leads', file, '--results', join(dir.path, `run-${++runs}`), ...extra]);
const fields = async (object: string) => (await api.get(`/v1/fields?object=${object}&limit=100`)).body.data as Record<string, any>[];
const leads = async () => (await api.get('/v1/leads?limit=100')).body.data as Record<string, any>[];
const lead = async (externalId: string) => (await leads()).find((l) => l.external_id === externalId)!;

describe('import: columns that fill no field', () => {
  it('stop before anything is written, name the columns and say what to do (exit 2)', async () => {
    const run = await importLeads(HUBSPOT, '--from', 'hubspot');
    expect(run.code, run.stdout + run.stderr).toBe(2);
    for (const column of ['Lifecycle Stage', 'Country/Region', 'Create Date', 'Annual Revenue', 'Last Activity Date'])
      expect(run.stderr).toContain(`"${column}"`);
    expect(run.stderr).not.toContain('"First Name"'); // the preset knows it
    expect(run.stderr).toContain('--create-fields');
    expect(run.stderr).toContain('--ignore-unknown');
    expect(await leads()).toEqual([]);
    expect(await fields('lead')).toEqual([]);
  });

  it('without --from, say which product the file looks like', async () => {
    const run = await importLeads(HUBSPOT);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/looks like a HubSpot export .*add --from hubspot/);
    expect(await leads()).toEqual([]);
  });

  it('--ignore-unknown leaves them out, and says which', async () => {
    const run = await importLeads(HUBSPOT, '--from', 'hubspot', '--ignore-unknown', '--json');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.summary).toEqual({ created: 6, updated: 0, unchanged: 0, failed: 0 });
    expect(report.ignored_columns).toEqual(['Lifecycle Stage', 'Country/Region', 'Create Date', 'Annual Revenue', 'Last Activity Date']);
    // The BOM, the quoted commas and the empty cells read as they are.
    expect(await lead('301')).toMatchObject({ first_name: 'Ada', company: 'Analytical Engines, Ltd', phone: '+44 20 7946 0000', custom_fields: {} });
    expect(await lead('304')).toMatchObject({ company: null, custom_fields: {} });
    expect(await fields('lead')).toEqual([]);
  });

  it('--create-fields --plan shows the fields and their types, and creates nothing', async () => {
    const before = await leads();
    const run = await importLeads(HUBSPOT, '--from', 'hubspot', '--create-fields', '--plan');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('Would define 5 custom field(s)');
    expect(run.stdout).toContain('lifecycle_stage (select: Lead, Customer, Subscriber) ← "Lifecycle Stage"');
    expect(run.stdout).toContain('country_region (select: United Kingdom, United States, France) ← "Country/Region"');
    // HubSpot writes its dates and times without an offset: their time zone is unknown, so text.
    expect(run.stdout).toContain('create_date (text) ← "Create Date"');
    expect(run.stdout).toContain('annual_revenue (number) ← "Annual Revenue"');
    expect(run.stdout).toContain('last_activity_date (date) ← "Last Activity Date"');
    expect(await fields('lead')).toEqual([]);
    expect(await leads()).toEqual(before);
  });

  it('--create-fields defines them with the inferred types and stores the values typed', async () => {
    const run = await importLeads(HUBSPOT, '--from', 'hubspot', '--create-fields', '--json');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.summary).toEqual({ created: 0, updated: 6, unchanged: 0, failed: 0 });
    expect(report.fields_created.map((f: any) => [f.key, f.type])).toEqual([
      ['lifecycle_stage', 'select'],
      ['country_region', 'select'],
      ['create_date', 'text'],
      ['annual_revenue', 'number'],
      ['last_activity_date', 'date'],
    ]);
    const defined = await fields('lead');
    expect(defined.map((f) => [f.key, f.label, f.type])).toEqual([
      ['lifecycle_stage', 'Lifecycle Stage', 'select'],
      ['country_region', 'Country/Region', 'select'],
      ['create_date', 'Create Date', 'text'],
      ['annual_revenue', 'Annual Revenue', 'number'],
      ['last_activity_date', 'Last Activity Date', 'date'],
    ]);
    expect(defined[0]!.options.map((o: any) => o.value)).toEqual(['Lead', 'Customer', 'Subscriber']);
    expect((await lead('301')).custom_fields).toEqual({
      lifecycle_stage: 'Lead',
      country_region: 'United Kingdom',
      create_date: '2026-01-05 09:12',
      annual_revenue: 1250000.5,
      last_activity_date: '2026-02-01',
    });
    // Empty cells send nothing.
    expect((await lead('304')).custom_fields).toEqual({ lifecycle_stage: 'Subscriber', create_date: '2026-03-02 10:00', last_activity_date: '2026-03-20' });
  });

  it('the same file again fills the fields by label: the very batches of the run that defined them, so replayed', async () => {
    const plan = await importLeads(HUBSPOT, '--from', 'hubspot', '--plan', '--json');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).summary).toEqual({ created: 0, updated: 0, unchanged: 6, failed: 0 });
    // Typed by the definitions as by --create-fields: the same body, so the same Idempotency-Key.
    const run = await importLeads(HUBSPOT, '--from', 'hubspot', '--json');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ summary: { created: 0, updated: 6, unchanged: 0, failed: 0 }, replayed: { batches: 1, rows: 6 } });
  });

  it('a cell its field cannot take fails its row, naming the column; the other rows import', async () => {
    const file = join(dir.path, 'bad-cells.csv');
    writeFileSync(
      file,
      'external_id,email,Lifecycle Stage,annual_revenue,custom.last_activity_date\n' +
        'cell-1,c1@example.com,customer,12 000,2026-02-30\n' + // select by value ignoring case; then a bad number
        'cell-2,c2@example.com,Partner,5,\n' +
        'cell-3,c3@example.com,subscriber,7.5,2026-05-01\n',
    );
    const results = join(dir.path, 'bad-cells');
    const run = await crm(['sync', 'import', 'leads', file, '--results', results]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const failed = readCsv(join(results, 'failed.csv'));
    expect(failed.map((r) => [r.line, r.error_code])).toEqual([
      ['2', 'invalid_value'],
      ['3', 'invalid_value'],
    ]);
    expect(failed[0]!.error_message).toContain('Column "annual_revenue" (custom_fields.annual_revenue): "12 000" is not a number');
    expect(failed[1]!.error_message).toContain(
      'Column "Lifecycle Stage" (custom_fields.lifecycle_stage): "Partner" is not an option of this select: Lead, Customer, Subscriber',
    );
    expect(await lead('cell-3')).toMatchObject({ custom_fields: { lifecycle_stage: 'Subscriber', annual_revenue: 7.5, last_activity_date: '2026-05-01' } });
    expect(await lead('cell-1')).toBeUndefined();
  });

  it('a key in the custom_fields JSON column that no field defines fails its row', async () => {
    const file = join(dir.path, 'json-column.csv');
    writeFileSync(file, 'external_id,email,custom_fields\njson-1,j1@example.com,"{""annual_revenue"": 3}"\njson-2,j2@example.com,"{""shoe_size"": 38}"\n');
    const results = join(dir.path, 'json-column');
    const run = await crm(['sync', 'import', 'leads', file, '--results', results]);
    expect(run.code).toBe(1);
    expect(readCsv(join(results, 'failed.csv')).map((r) => [r.line, r.error_code])).toEqual([['3', 'unknown_field']]);
    expect(await lead('json-1')).toMatchObject({ custom_fields: { annual_revenue: 3 } });
  });
});

describe('import: stdin', () => {
  it('--create-fields reads stdin twice, as a file (stdin is saved to a temporary file first)', async () => {
    const run = await runCrm(
      ['sync', 'import', 'clients', '-', '--create-fields', '--results', join(dir.path, 'stdin'), '--json'],
      { CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey },
      { input: 'name,Tier Level\nAcme,gold\nGlobex,gold\nInitech,silver\n' },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).summary.created).toBe(3);
    expect((await fields('client')).map((f) => [f.key, f.type, f.options?.map((o: any) => o.value)])).toEqual([['tier_level', 'select', ['gold', 'silver']]]);
  });
});

describe('import: Pipedrive typed columns', () => {
  it('Person - Email - Work and Person - Phone - Mobile fill email and phone; the rest become fields', async () => {
    const run = await importLeads(PIPEDRIVE, '--from', 'pipedrive', '--create-fields', '--json');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.summary).toEqual({ created: 4, updated: 0, unchanged: 0, failed: 0 });
    expect(report.fields_created.map((f: any) => [f.column, f.key, f.type])).toEqual([
      ['Person - Name', 'person_name', 'text'],
      ['Person - Email - Home', 'person_email_home', 'email'],
      ['Person - Label', 'person_label', 'select'],
      ['Person - Deal value', 'person_deal_value', 'number'],
    ]);
    expect(await lead('11')).toMatchObject({
      email: 'nikola@pd.example.com',
      phone: '+1 212 555 0111',
      company: 'Tesla Electric',
      custom_fields: { person_name: 'Nikola Tesla', person_email_home: 'nikola.home@pd.example.com', person_label: 'Hot', person_deal_value: 12000 },
    });
  });

  it('--map works on top of a preset: a column sent to an existing field', async () => {
    const file = join(dir.path, 'pipedrive-mapped.csv');
    writeFileSync(file, 'Person - ID,Person - Email - Work,Person - Temperature\n21,temp@pd.example.com,Cold\n');
    const run = await importLeads(file, '--from', 'pipedrive', '--map', 'Person - Temperature=person_label', '--json');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(await lead('21')).toMatchObject({ email: 'temp@pd.example.com', custom_fields: { person_label: 'Cold' } });
  });
});

describe('export', () => {
  it('writes a column per field (header = key) after the built-in ones; multi_select joined with ; and imported back the same', async () => {
    const created = await api.post('/v1/fields', {
      object: 'lead',
      key: 'product_line',
      label: 'Product line',
      type: 'multi_select',
      options: [
        { value: 'platform', label: 'Platform' },
        { value: 'services', label: 'Services' },
        { value: 'a;b', label: 'A or B' },
      ],
    });
    expect(created.status).toBe(201);
    const file = join(dir.path, 'multi.csv');
    writeFileSync(
      file,
      'external_id,email,Product Line\nmulti-1,m1@example.com,Platform; services\nmulti-2,m2@example.com,"[""a;b"",""platform""]"\nmulti-3,m3@example.com,services\n',
    );
    const run = await importLeads(file, '--json');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect((await lead('multi-1')).custom_fields).toEqual({ product_line: ['platform', 'services'] });
    expect((await lead('multi-2')).custom_fields).toEqual({ product_line: ['a;b', 'platform'] });

    const out = join(dir.path, 'export.csv');
    const exported = await crm(['sync', 'export', 'leads', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const header = readFileSync(out, 'utf8').split('\n')[0]!.split(',');
    const keys = (await fields('lead')).map((f) => f.key);
    expect(header.slice(-keys.length)).toEqual(keys);
    expect(header.slice(0, -keys.length).at(-1)).toBe('updated_at');
    const rows = new Map(readCsv(out).map((r) => [r.external_id, r]));
    expect(rows.get('multi-1')!.product_line).toBe('platform;services');
    expect(rows.get('multi-2')!.product_line).toBe('["a;b","platform"]');
    expect(rows.get('301')).toMatchObject({ lifecycle_stage: 'Lead', annual_revenue: '1250000.5', last_activity_date: '2026-02-01' });

    const back = await crm(['sync', 'import', 'leads', out, '--results', join(dir.path, 'export-back'), '--json']);
    expect(back.code, back.stdout + back.stderr).toBe(0);
    const summary = JSON.parse(back.stdout).summary;
    expect(summary).toEqual({ created: 0, updated: 0, unchanged: rows.size, failed: 0 });
  });
});
