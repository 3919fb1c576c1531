import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCrm } from '../helpers/cli-process.js';
import { type ApiClient, tempDir } from '../helpers/sandbox.js';
import { useSandboxes, type RunningApp } from '../helpers/app.js';

/**
 * `crm sync copy` with custom field definitions (docs/sync.md#custom-fields-in-a-copy): the
 * definitions are copied before the records (a key of another type in the target stops the copy
 * before anything is written), and masking goes by each field's type.
 */
let source: RunningApp;
let target: RunningApp;
let src: ApiClient;
let dst: ApiClient;
useSandboxes(2, { rateLimit: '0' }, ([s, t], [a, b]) => {
  [source, target, src, dst] = [s!, t!, a!, b!];
});
const tmp = tempDir('crm-copy-fields-');
afterAll(() => tmp.remove());

const INDUSTRY = {
  object: 'client',
  key: 'industry',
  label: 'Industry',
  type: 'select',
  options: [
    { value: 'software', label: 'Software' },
    { value: 'logistics', label: 'Logistics' },
  ],
};
const SOURCE_FIELDS = [
  INDUSTRY,
  { object: 'client', key: 'employees', label: 'Employees', type: 'number', decimals: 0 },
  { object: 'client', key: 'vat_note', label: 'VAT note', type: 'text' },
  { object: 'client', key: 'billing_email', label: 'Billing email', type: 'email' },
  { object: 'lead', key: 'lifecycle_stage', label: 'Lifecycle stage', type: 'select', options: [{ value: 'lead', label: 'Lead' }] },
  { object: 'lead', key: 'last_contacted', label: 'Last contacted', type: 'date' },
];
const CLIENT = {
  external_id: 'acme',
  name: 'Acme Logistics GmbH',
  custom_fields: { industry: 'logistics', employees: 120, vat_note: 'Reverse charge for Anna Schmidt', billing_email: 'anna.schmidt@acme.de' },
};
const LEAD = { first_name: 'Jan', last_name: 'Kowalski', email: 'jan@kowalski.pl', custom_fields: { lifecycle_stage: 'lead', last_contacted: '2026-03-01' } };

beforeAll(async () => {
  for (const field of SOURCE_FIELDS) expect((await src.post('/v1/fields', field)).status).toBe(201);
  expect((await src.post('/v1/clients', CLIENT)).status).toBe(201);
  expect((await src.post('/v1/leads', LEAD)).status).toBe(201);
});

async function copy(...extra: string[]) {
  return runCrm(
    ['sync', 'copy', '--from', source.baseUrl, '--to', target.baseUrl, '--resources', 'clients,leads', '--results', join(tmp.path, 'results'), ...extra],
    { CRM_FROM_API_KEY: source.apiKey, CRM_TO_API_KEY: target.apiKey },
  );
}
const targetFields = async () => (await dst.get('/v1/fields?limit=100')).body.data as Record<string, any>[];

describe('crm sync copy: custom field definitions', () => {
  it('a key of another type in the target stops the copy before anything is written (exit 2)', async () => {
    const conflicting = await dst.post('/v1/fields', { object: 'client', key: 'industry', label: 'Industry', type: 'text' });
    expect(conflicting.status).toBe(201);
    const run = await copy('--mask-key-file', join(tmp.path, 'mask.key'), '--mask', 'default');
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain('client.industry is a select in the source and a text in the target');
    expect(run.stderr).toContain('Nothing was written');
    expect((await targetFields()).map((f) => f.key)).toEqual(['industry']);
    expect((await dst.get('/v1/clients')).body.data).toEqual([]);
    expect((await dst.get('/v1/leads')).body.data).toEqual([]);
    expect((await dst.delete(`/v1/fields/${conflicting.body.id}`)).status).toBe(200);
  });

  it('--plan names the fields it would define and defines none', async () => {
    const run = await copy('--plan', '--json');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).fields.created).toEqual([
      'client.industry',
      'client.employees',
      'client.vat_note',
      'client.billing_email',
      'lead.lifecycle_stage',
      'lead.last_contacted',
    ]);
    expect(await targetFields()).toEqual([]);
  });

  it('defines the fields first, then copies the records; masking fakes text-like values and keeps a select, a number and a date', async () => {
    // The target has the select already, with fewer options: it is given the source's others.
    await dst.post('/v1/fields', { ...INDUSTRY, options: [INDUSTRY.options[0]] });
    const run = await copy('--mask-key-file', join(tmp.path, 'mask.key'), '--mask', 'default', '--json');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.fields).toEqual({
      created: ['client.employees', 'client.vat_note', 'client.billing_email', 'lead.lifecycle_stage', 'lead.last_contacted'],
      updated: ['client.industry'],
    });
    expect(report.summary).toMatchObject({ created: 2, failed: 0 });

    const fields = await targetFields();
    expect(fields.map((f) => [f.object, f.key, f.type])).toEqual(SOURCE_FIELDS.map((f) => [f.object, f.key, f.type]));
    expect(fields[0]!.options.map((o: any) => o.value)).toEqual(['software', 'logistics']);

    const [client] = (await dst.get('/v1/clients')).body.data;
    expect(client.name).not.toBe(CLIENT.name);
    const custom = client.custom_fields;
    expect(custom.industry).toBe('logistics'); // a select is kept: a fake would be no option
    expect(custom.employees).toBe(120);
    expect(custom.vat_note).not.toBe(CLIENT.custom_fields.vat_note);
    expect(custom.vat_note).not.toContain('Schmidt');
    expect(custom.billing_email).not.toBe(CLIENT.custom_fields.billing_email);
    expect(custom.billing_email).toMatch(/@example\.(com|org|net)$/);
    const [lead] = (await dst.get('/v1/leads')).body.data;
    expect(lead.email).not.toBe(LEAD.email);
    expect(lead.custom_fields).toEqual(LEAD.custom_fields); // a select and a date are kept
  });

  it('a rerun finds the definitions there and changes nothing', async () => {
    const run = await copy('--mask-key-file', join(tmp.path, 'mask.key'), '--mask', 'default', '--json');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.fields).toBeUndefined(); // nothing defined or given options twice
    expect((await targetFields()).map((f) => f.key)).toEqual(SOURCE_FIELDS.map((f) => f.key));
    expect(report.summary).toMatchObject({ created: 0, updated: 0, unchanged: 2, failed: 0 });
  });
});
