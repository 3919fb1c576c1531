import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCrm } from '../helpers/cli-process.js';
import { type ApiClient, tempDir } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { FIXTURES } from '../helpers/sync.js';

/**
 * `crm sync import --from hubspot|salesforce|pipedrive` (docs/sync.md#presets---from-hubspotsalesforcepipedrive), on fixtures built from the
 * products' documented export columns and value sets (fixtures/sync/presets/).
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({ rateLimit: '0' }, (s, a) => {
  sandbox = s;
  api = a;
});
const dir = tempDir('crm-presets-');
afterAll(() => dir.remove());
const PRESETS = join(FIXTURES, 'presets');
const env = () => ({ CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey });

async function importFrom(product: string, resource: string, file: string) {
  // The columns a preset does not know fill custom fields: here defined from the file (docs/sync.md#custom-fields).
  const res = await runCrm(
    ['sync', 'import', resource, join(PRESETS, file), '--from', product, '--create-fields', '--results', join(dir.path, file), '--json'],
    env(),
  );
  expect(res.code, res.stdout + res.stderr).toBe(0);
  return JSON.parse(res.stdout);
}
/** What --create-fields defined: [column, key, type]. */
const created = (report: { fields_created?: { column: string; key: string; type: string }[] }) =>
  (report.fields_created ?? []).map((f) => [f.column, f.key, f.type]);
const pick = (record: Record<string, unknown>, fields: string[]) => Object.fromEntries(fields.map((f) => [f, record[f]]));
const LEAD_FIELDS = ['external_id', 'first_name', 'last_name', 'email', 'phone', 'company', 'title', 'source', 'status', 'custom_fields'];
async function leadsByExternalId(ids: string[]) {
  const all = (await api.get('/v1/leads?limit=100')).body.data as Record<string, unknown>[];
  return ids.map((id) => pick(all.find((l) => l.external_id === id)!, LEAD_FIELDS));
}

describe('--from presets', () => {
  it('HubSpot contacts: Record ID, names, Phone Number, Company Name, Lead Status values; unknown columns become custom fields', async () => {
    const report = await importFrom('hubspot', 'leads', 'hubspot-contacts.csv');
    expect(report.summary).toEqual({ created: 3, updated: 0, unchanged: 0, failed: 0 });
    expect(created(report)).toEqual([
      ['Create Date', 'create_date', 'text'], // HubSpot writes no offset: its time zone is unknown
      ['Lifecycle Stage', 'lifecycle_stage', 'select'],
    ]);
    expect(await leadsByExternalId(['101', '102', '103'])).toEqual([
      {
        external_id: '101',
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@hs.example.com',
        phone: '+442079460000',
        company: 'Analytical Engines',
        title: null,
        source: null,
        status: 'new',
        custom_fields: { create_date: '2026-01-05 09:12', lifecycle_stage: 'lead' },
      },
      {
        external_id: '102',
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@hs.example.com',
        phone: null,
        company: 'Navy',
        title: null,
        source: null,
        status: 'qualified',
        custom_fields: { create_date: '2026-02-11 14:00', lifecycle_stage: 'opportunity' },
      },
      {
        external_id: '103',
        first_name: 'Alan',
        last_name: 'Turing',
        email: 'alan@hs.example.com',
        phone: null,
        company: 'Bletchley',
        title: null,
        source: null,
        status: 'unqualified',
        custom_fields: { create_date: '2026-03-01 08:30', lifecycle_stage: 'lead' },
      },
    ]);
    // A rerun of the same export makes no second copy (Record ID is the external_id).
    await importFrom('hubspot', 'leads', 'hubspot-contacts.csv');
    expect((await api.get('/v1/leads?limit=100')).body.data).toHaveLength(3);
  });

  it('Salesforce leads: Id, LeadSource and Status values', async () => {
    const report = await importFrom('salesforce', 'leads', 'salesforce-leads.csv');
    expect(created(report)).toEqual([['CreatedDate', 'createddate', 'datetime']]);
    expect(await leadsByExternalId(['00Q5g00000AbCdE', '00Q5g00000AbCdF', '00Q5g00000AbCdG'])).toEqual([
      {
        external_id: '00Q5g00000AbCdE',
        first_name: 'Marie',
        last_name: 'Curie',
        email: 'marie@sf.example.com',
        phone: '+33140000000',
        company: 'Radium Institute',
        title: 'Director',
        source: 'web',
        status: 'new',
        custom_fields: { createddate: '2026-04-01T10:00:00.000Z' },
      },
      {
        external_id: '00Q5g00000AbCdF',
        first_name: 'Pierre',
        last_name: 'Curie',
        email: 'pierre@sf.example.com',
        phone: null,
        company: 'Radium Institute',
        title: null,
        source: 'partner',
        status: 'contacted',
        custom_fields: { createddate: '2026-04-02T10:00:00.000Z' },
      },
      {
        external_id: '00Q5g00000AbCdG',
        first_name: 'Lise',
        last_name: 'Meitner',
        email: 'lise@sf.example.com',
        phone: null,
        company: 'KWI',
        title: null,
        source: 'cold_call',
        status: 'unqualified',
        custom_fields: { createddate: '2026-04-03T10:00:00.000Z' },
      },
    ]);
  });

  it('Pipedrive persons: "Person - …" and "Organization - Name" columns', async () => {
    const report = await importFrom('pipedrive', 'leads', 'pipedrive-persons.csv');
    expect(created(report)).toEqual([
      ['Person - Name', 'person_name', 'text'],
      ['Person - Label', 'person_label', 'text'], // two values, none repeated: no list to pick from yet
    ]);
    expect(await leadsByExternalId(['1', '2'])).toEqual([
      {
        external_id: '1',
        first_name: 'Nikola',
        last_name: 'Tesla',
        email: 'nikola@pd.example.com',
        phone: '+12125550100',
        company: 'Tesla Electric',
        title: null,
        source: null,
        status: 'new',
        custom_fields: { person_name: 'Nikola Tesla', person_label: 'Hot' },
      },
      {
        external_id: '2',
        first_name: 'Ada',
        last_name: 'Byron',
        email: 'ada@pd.example.com',
        phone: null,
        company: null,
        title: null,
        source: null,
        status: 'new',
        custom_fields: { person_name: 'Ada Byron', person_label: 'Cold' },
      },
    ]);
  });

  it('Salesforce accounts with their contacts become clients with a primary contact person', async () => {
    const report = await importFrom('salesforce', 'clients', 'salesforce-accounts-contacts.csv');
    expect(report.summary.created).toBe(2);
    expect(created(report)).toEqual([['Industry', 'industry', 'text']]);
    const clients = (await api.get('/v1/clients?limit=100')).body.data as any[];
    const acme = clients.find((c) => c.external_id === '0015g00000XyZaA');
    expect(pick(acme, ['name', 'website', 'custom_fields'])).toEqual({
      name: 'Acme Corp',
      website: 'https://acme.example.com',
      custom_fields: { industry: 'Manufacturing' },
    });
    expect(acme.address.city).toBe('Berlin');
    const contacts = acme.contacts ?? (await api.get(`/v1/clients/${acme.id}/contacts`)).body.data;
    expect(contacts.map((c: any) => pick(c, ['first_name', 'last_name', 'email', 'role', 'is_primary']))).toEqual([
      { first_name: 'Wile', last_name: 'Coyote', email: 'wile@acme.example.com', role: 'Buyer', is_primary: true },
    ]);
  });

  it('HubSpot companies: Record ID, Company name, domain, phone and address; Country/Region and Industry as custom fields', async () => {
    const report = await importFrom('hubspot', 'clients', 'hubspot-companies.csv');
    expect(report.summary).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 0 });
    // Industry fills the field the Salesforce accounts made (by its key); the others are defined.
    expect(created(report)).toEqual([
      ['Country/Region', 'country_region', 'text'],
      ['Create Date', 'create_date', 'text'],
    ]);
    const clients = (await api.get('/v1/clients?limit=100')).body.data as any[];
    const byId = (id: string) => clients.find((c) => c.external_id === id);
    expect(pick(byId('5001'), ['name', 'website', 'phone', 'custom_fields'])).toEqual({
      name: 'Analytical Engines Ltd',
      website: 'analytical.example.com',
      phone: '+442079460001',
      custom_fields: { country_region: 'United Kingdom', industry: 'Machinery', create_date: '2026-01-05 09:12' },
    });
    expect(byId('5001').address).toMatchObject({ line1: '12 Babbage Row', city: 'London', region: null, postal_code: 'EC1A 1BB' });
    expect(pick(byId('5002'), ['name', 'website', 'phone'])).toEqual({ name: 'Compiler Systems', website: 'compilers.example.com', phone: null });
    expect(byId('5002').address).toMatchObject({ line1: '1 Cobol Way', city: 'Arlington', region: 'VA', postal_code: '22201' });
    // A rerun makes no second copy.
    await importFrom('hubspot', 'clients', 'hubspot-companies.csv');
    const again = (await api.get('/v1/clients?limit=100')).body.data as any[];
    expect(again.filter((c) => c.external_id === '5001' || c.external_id === '5002')).toHaveLength(2);
  });

  it('Pipedrive organizations: "Organization - …" columns, and the person on the row as the contact', async () => {
    const report = await importFrom('pipedrive', 'clients', 'pipedrive-organizations.csv');
    expect(report.summary).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 0 });
    expect(created(report)).toEqual([
      ['Organization - Owner', 'organization_owner', 'select'],
      ['Organization - People', 'organization_people', 'number'],
      ['Organization - Label', 'organization_label', 'text'],
    ]);
    const clients = (await api.get('/v1/clients?limit=100')).body.data as any[];
    const tesla = clients.find((c) => c.external_id === '7');
    expect(pick(tesla, ['name', 'custom_fields'])).toEqual({
      name: 'Tesla Electric',
      custom_fields: { organization_owner: 'Thomas Edison', organization_people: 1, organization_label: 'Hot' },
    });
    expect(tesla.address.line1).toBe('8 West 40th Street, New York');
    const contacts = (await api.get(`/v1/clients/${tesla.id}/contacts`)).body.data;
    expect(contacts.map((c: any) => pick(c, ['first_name', 'last_name', 'email', 'phone', 'is_primary']))).toEqual([
      { first_name: 'Nikola', last_name: 'Tesla', email: 'nikola@pd.example.com', phone: '+12125550100', is_primary: true },
    ]);
    const lab = clients.find((c) => c.external_id === '8');
    expect(lab.name).toBe('Wardenclyffe Labs');
    expect((await api.get(`/v1/clients/${lab.id}/contacts`)).body.data).toEqual([]);
  });

  it('a companies export given as leads, or a HubSpot file given to --from salesforce, names what is missing', async () => {
    const asLeads = await runCrm(
      ['sync', 'import', 'leads', join(PRESETS, 'hubspot-companies.csv'), '--from', 'hubspot', '--results', join(dir.path, 'wrong-leads')],
      env(),
    );
    expect(asLeads.code).toBe(2);
    expect(asLeads.stderr).toContain('not a hubspot leads export');
    expect(asLeads.stderr).toContain('"email"');
    const other = await runCrm(
      ['sync', 'import', 'clients', join(PRESETS, 'pipedrive-organizations.csv'), '--from', 'salesforce', '--results', join(dir.path, 'wrong-sf')],
      env(),
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('"account id", "account name"');
  });

  it("a preset given another product's file names the missing columns (usage error, nothing imported)", async () => {
    const before = (await api.get('/v1/leads?limit=100')).body.data.length;
    const res = await runCrm(
      ['sync', 'import', 'leads', join(PRESETS, 'hubspot-contacts.csv'), '--from', 'pipedrive', '--results', join(dir.path, 'wrong')],
      env(),
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('not a pipedrive leads export');
    expect(res.stderr).toContain('"person - id", "person - email"');
    expect((await api.get('/v1/leads?limit=100')).body.data.length).toBe(before);
  });
});
