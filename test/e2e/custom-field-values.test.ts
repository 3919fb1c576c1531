import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, useApp } from '../helpers/app.js';
import { aClient, aDeal, aLead } from '../helpers/factories.js';
import type { ApiClient } from '../helpers/sandbox.js';

/** Records' custom field values against their definitions (docs/reference/custom-fields.md#values), over HTTP. */
let api: ApiClient;
let app: RunningApp;
useApp({}, (a, client) => {
  app = a;
  api = client;
});

const define = async (object: string, key: string, type: string, extra: Record<string, unknown> = {}) => {
  const res = await api.post('/v1/fields', { object, key, label: key.replace(/_/g, ' '), type, ...extra });
  if (res.status !== 201) throw new Error(`POST /v1/fields answered ${res.status}: ${res.text}`);
};
const options = (...values: string[]) => values.map((value) => ({ value, label: value[0]!.toUpperCase() + value.slice(1) }));

beforeAll(async () => {
  await define('lead', 'note', 'text');
  await define('lead', 'story', 'long_text');
  await define('lead', 'score', 'number', { decimals: 1 });
  await define('lead', 'opted_in', 'boolean');
  await define('lead', 'met_on', 'date');
  await define('lead', 'call_at', 'datetime');
  await define('lead', 'stage', 'select', { options: options('cold', 'warm', 'hot') });
  await define('lead', 'interests', 'multi_select', { options: options('crm', 'erp', 'bi') });
  await define('lead', 'work_email', 'email');
  await define('lead', 'homepage', 'url');
  await define('lead', 'mobile', 'phone');
  await define('client', 'tier', 'select', { options: options('gold', 'silver'), required: true });
});

describe('a value of each type', () => {
  it('is stored when valid, and read back as sent', async () => {
    const values = {
      note: 'Met at the fair',
      story: 'x'.repeat(5000),
      score: 4.5,
      opted_in: true,
      met_on: '2024-02-29',
      call_at: '2026-11-28T09:30:00+01:00',
      stage: 'warm',
      interests: ['crm', 'bi'],
      work_email: 'anna@münchen.example',
      homepage: 'https://example.com/about',
      mobile: '+49 (30) 1234-567 x89',
    };
    const lead = await aLead(api, { custom_fields: values });
    expect(lead.custom_fields).toEqual(values);
    expect((await api.get(`/v1/leads/${lead.id}`)).body.custom_fields).toEqual(values);
  });

  it.each([
    ['note', 'x'.repeat(1001), /at most 1,000 characters/],
    ['note', 42, /expected text/],
    ['score', 4.25, /at most 1 decimals/],
    ['score', '4', /expected a number/],
    ['opted_in', 'yes', /true or false/],
    ['met_on', '2023-02-29', /no such date/],
    ['met_on', '29.02.2024', /YYYY-MM-DD/],
    ['call_at', '2026-11-28 09:30', /RFC 3339/],
    ['call_at', '2026-11-28T09:30:00', /RFC 3339/],
    ['stage', 'boiling', /expected one of cold, warm, hot/],
    ['interests', 'crm', /expected a list of crm, erp, bi/],
    ['interests', ['crm', 'crm'], /listed twice/],
    ['interests', ['crm', 'sap'], /not an option: sap/],
    ['work_email', 'anna@', /email address/],
    ['homepage', 'javascript:alert(1)', /http or https/],
    ['homepage', 'ftp://example.com', /http or https/],
    ['mobile', '+49 30 <script>', /phone number/],
  ])('%s = %j is refused with a 422 naming custom_fields.%s', async (key, value, message) => {
    const res = await api.post('/v1/leads', { first_name: 'Bad', custom_fields: { [key]: value } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ path: `custom_fields.${key}`, code: 'invalid_value', message: expect.stringMatching(message) }),
    ]);
  });

  it('names every bad value at once', async () => {
    const res = await api.post('/v1/leads', { first_name: 'Bad', custom_fields: { score: 'x', stage: 'x' } });
    expect(res.body.errors.map((e: any) => e.path)).toEqual(['custom_fields.score', 'custom_fields.stage']);
  });
});

describe('changing values', () => {
  it('a PATCH changes the keys it names, null clears one, and the others stay', async () => {
    const lead = await aLead(api, { custom_fields: { note: 'first', score: 1, stage: 'cold' } });
    const patched = await api.patch(`/v1/leads/${lead.id}`, { custom_fields: { score: 2, stage: null } });
    expect(patched.status).toBe(200);
    expect(patched.body.custom_fields).toEqual({ note: 'first', score: 2 });
    const events = (await api.get(`/v1/events?type=lead.updated&limit=1000`)).body.data.filter((e: any) => e.data.object.id === lead.id);
    expect(events.at(-1).previous_attributes.custom_fields).toEqual({ note: 'first', score: 1, stage: 'cold' });
    // The same values again change nothing: no event.
    await api.patch(`/v1/leads/${lead.id}`, { custom_fields: { score: 2 } });
    expect((await api.get(`/v1/events?type=lead.updated&limit=1000`)).body.data.filter((e: any) => e.data.object.id === lead.id)).toHaveLength(events.length);
  });

  it('an empty multi-select list is no value', async () => {
    const lead = await aLead(api, { custom_fields: { interests: ['erp'] } });
    expect((await api.patch(`/v1/leads/${lead.id}`, { custom_fields: { interests: [] } })).body.custom_fields).toEqual({});
  });

  it('a required field must be given on create and cannot be cleared, on every path that writes', async () => {
    const missing = await api.post('/v1/clients', { name: 'No Tier GmbH' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toMatchObject({ path: 'custom_fields.tier', code: 'required' });
    const client = await aClient(api, { custom_fields: { tier: 'gold' } });
    const cleared = await api.patch(`/v1/clients/${client.id}`, { custom_fields: { tier: null } });
    expect(cleared.status).toBe(422);
    expect(cleared.body.errors[0]).toMatchObject({ path: 'custom_fields.tier', code: 'required' });
    expect((await api.get(`/v1/clients/${client.id}`)).body.custom_fields).toEqual({ tier: 'gold' });
    // Bulk makes records with the same rules as POST.
    const bulk = await api.post('/v1/clients/bulk', {
      mode: 'create',
      records: [{ name: 'Bulk Tierless' }, { name: 'Bulk Gold', custom_fields: { tier: 'gold' } }],
    });
    expect(bulk.body.results.map((r: any) => r.status)).toEqual(['failed', 'created']);
    expect(bulk.body.results[0].error.path).toBe('custom_fields.tier');
    // A lead conversion makes its client through the same rule.
    const lead = await aLead(api, { company: 'Converted Co' });
    const converted = await api.post(`/v1/leads/${lead.id}/convert`, {});
    expect(converted.status).toBe(422);
    expect(JSON.stringify(converted.body)).toMatch(/custom_fields\.tier/);
    expect((await api.patch('/v1/fields/' + (await fieldId('client', 'tier')), { required: false })).status).toBe(200);
    expect((await api.post('/v1/clients', { name: 'Optional Tier GmbH' })).status).toBe(201);
  });

  it('a deal is checked the same way', async () => {
    await define('deal', 'region', 'select', { options: options('emea', 'apac') });
    const refused = await api.post('/v1/deals', { title: 'Bad region', value: 1, currency: 'EUR', stage: 'lead_in', custom_fields: { region: 'mars' } });
    expect(refused.status).toBe(422);
    const deal = await aDeal(api, { custom_fields: { region: 'emea' } });
    expect((await api.patch(`/v1/deals/${deal.id}`, { custom_fields: { region: 'apac' } })).body.custom_fields).toEqual({ region: 'apac' });
  });

  it('a key no field defines is refused, naming the fields there are; nothing is written', async () => {
    const res = await api.post('/v1/leads', { first_name: 'Unknown', email: 'unknown-key@example.com', custom_fields: { legacy_code: 'A-7' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({
      path: 'custom_fields.legacy_code',
      code: 'unknown_field',
      message: expect.stringMatching(/POST \/v1\/fields.*Defined: note/),
    });
    expect((await api.get('/v1/leads?email=unknown-key@example.com')).body.data).toEqual([]);
    // The same through PATCH and bulk.
    const lead = await aLead(api);
    expect((await api.patch(`/v1/leads/${lead.id}`, { custom_fields: { legacy_code: 'A-7' } })).status).toBe(422);
    const bulk = await api.post('/v1/leads/bulk', { mode: 'create', records: [{ first_name: 'B', custom_fields: { legacy_code: 'x' } }] });
    expect(bulk.body.results[0]).toMatchObject({ status: 'failed', error: { code: 'validation_failed', path: 'custom_fields.legacy_code' } });
  });

  it('a key held from before definitions can still be cleared with null', async () => {
    const lead = await aLead(api, { custom_fields: { note: 'n' } });
    // As a record written before definitions existed holds it (the migration would define it; here it is planted).
    const file = new Database(app.db);
    file.prepare('UPDATE leads SET custom_fields = ? WHERE id = ?').run(JSON.stringify({ note: 'n', old_key: 1 }), lead.id);
    file.close();
    const cleared = await api.patch(`/v1/leads/${lead.id}`, { custom_fields: { old_key: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.custom_fields).toEqual({ note: 'n' });
  });
});

async function fieldId(object: string, key: string): Promise<string> {
  return (await api.get(`/v1/fields?object=${object}&limit=1000`)).body.data.find((f: any) => f.key === key).id;
}
