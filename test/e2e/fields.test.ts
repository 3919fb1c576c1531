import { describe, expect, it } from 'vitest';
import { type RunningApp, useApp } from '../helpers/app.js';
import { aClient, aDeal, aLead, anApiKey } from '../helpers/factories.js';
import type { ApiClient } from '../helpers/sandbox.js';

/** Custom field definitions over HTTP (docs/reference/custom-fields.md), each effect read back through the API. */
let api: ApiClient;
let app: RunningApp;
useApp({}, (a, client) => {
  app = a;
  api = client;
});

let n = 0;
const key = (base: string) => `${base}_${++n}`;
const aField = async (body: Record<string, unknown>) => {
  const res = await api.post('/v1/fields', { object: 'client', label: 'A field', type: 'text', ...body, key: body.key ?? key('f') });
  if (res.status !== 201) throw new Error(`POST /v1/fields answered ${res.status}: ${res.text}`);
  return res.body;
};
const options = (...values: string[]) => values.map((value) => ({ value, label: value.toUpperCase() }));

describe('defining fields', () => {
  it('creates, lists by object and position, reads, changes and deletes a field, each with its event', async () => {
    const industry = await aField({ key: key('industry'), label: 'Industry', type: 'select', options: options('software', 'logistics') });
    expect(industry).toMatchObject({ object: 'client', type: 'select', required: false, decimals: null, options: options('software', 'logistics') });
    expect(industry.id).toMatch(/^fld_/);
    const size = await aField({ key: key('size'), type: 'number', decimals: 0 });
    expect(size.position).toBe(industry.position + 1);
    await aField({ object: 'lead', key: key('other_object') });

    const listed = (await api.get('/v1/fields?object=client')).body.data.map((f: any) => f.id);
    expect(listed.slice(-2)).toEqual([industry.id, size.id]);
    expect((await api.get(`/v1/fields/${industry.id}`)).body.label).toBe('Industry');

    const relabelled = await api.patch(`/v1/fields/${industry.id}`, {
      label: 'Sector',
      options: [...options('software', 'logistics'), { value: 'energy', label: 'Energy' }],
    });
    expect(relabelled.status).toBe(200);
    expect(relabelled.body.options.map((o: any) => o.value)).toEqual(['software', 'logistics', 'energy']);

    expect((await api.delete(`/v1/fields/${size.id}`)).body).toEqual({ id: size.id, deleted: true, values_removed: 0 });
    expect((await api.get(`/v1/fields/${size.id}`)).status).toBe(404);

    const events = (await api.get('/v1/events?type=field.created,field.updated,field.deleted&limit=100')).body.data;
    const about = (id: string) => events.filter((e: any) => e.data.object.id === id).map((e: any) => e.type);
    expect(about(industry.id)).toEqual(['field.created', 'field.updated']);
    expect(about(size.id)).toEqual(['field.created', 'field.deleted']);
    const updated = events.find((e: any) => e.type === 'field.updated' && e.data.object.id === industry.id);
    expect(updated.previous_attributes.label).toBe('Industry');
  });

  it.each([
    ['a key that is not lowercase', { key: 'Industry' }, 'key'],
    ['a key starting with a digit', { key: '1st' }, 'key'],
    ['a select without options', { type: 'select' }, 'options'],
    ['options on a text field', { type: 'text', options: options('a') }, 'options'],
    ['decimals on a text field', { type: 'text', decimals: 2 }, 'decimals'],
    ['the same option twice', { type: 'select', options: options('a', 'a') }, 'options'],
    ['an unknown type', { type: 'currency' }, 'type'],
    ['an unknown object', { object: 'invoice' }, 'object'],
    ['an unknown property', { colour: 'red' }, 'colour'],
  ])('refuses %s (422 naming the field)', async (_name, body, path) => {
    const res = await api.post('/v1/fields', { object: 'client', key: key('bad'), label: 'Bad', type: 'text', ...body });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toContain(path);
  });

  it('refuses a built-in name or a key taken on the same object, but not on another', async () => {
    const builtIn = await api.post('/v1/fields', { object: 'lead', key: 'email', label: 'Email', type: 'email' });
    expect(builtIn.status).toBe(409);
    expect(builtIn.body.detail).toMatch(/built-in field of a lead/);
    const taken = key('taken');
    await aField({ key: taken });
    expect((await api.post('/v1/fields', { object: 'client', key: taken, label: 'Again', type: 'text' })).status).toBe(409);
    expect((await api.post('/v1/fields', { object: 'deal', key: taken, label: 'Deal one', type: 'text' })).status).toBe(201);
  });

  it('allows at most 200 fields an object', async () => {
    // An account of its own: the other tests' fields stay below the limit.
    const own = (await api.post('/_sandbox/accounts', { name: 'two hundred fields', seed: null })).body.api_key as string;
    // A new account has its plan's rate limit: wait as its Retry-After says.
    const define = async (k: string): Promise<{ status: number; body: any; headers: Headers }> => {
      const res = await api.post('/v1/fields', { object: 'deal', key: k, label: k, type: 'text' }, { key: own });
      if (res.status !== 429) return res;
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
      return define(k);
    };
    for (let i = 0; i < 200; i++) expect((await define(`many_${i}`)).status).toBe(201);
    const over = await define('one_too_many');
    expect(over.status).toBe(409);
    expect(over.body.detail).toMatch(/at most 200/);
    expect((await api.post('/v1/fields', { object: 'lead', key: 'still_fine', label: 'Lead', type: 'text' }, { key: own })).status).toBe(201);
    // Paged in order with a cursor bound to the filter.
    const first = (await api.get('/v1/fields?object=deal&limit=150', { key: own })).body;
    const second = (await api.get(`/v1/fields?object=deal&limit=150&cursor=${encodeURIComponent(first.next_cursor)}`, { key: own })).body;
    expect([...first.data, ...second.data].map((f: any) => f.key)).toEqual(Array.from({ length: 200 }, (_, i) => `many_${i}`));
    expect(second.next_cursor).toBeNull();
    expect((await api.get(`/v1/fields?object=lead&cursor=${encodeURIComponent(first.next_cursor)}`, { key: own })).status).toBe(400);
  });
});

describe('changing a field that records hold', () => {
  it('refuses removing an option records hold, naming how many, and allows it once none do', async () => {
    const field = await aField({ type: 'select', options: options('gold', 'silver') });
    const a = await aClient(api, { custom_fields: { [field.key]: 'gold' } });
    await aClient(api, { custom_fields: { [field.key]: 'gold' } });
    const refused = await api.patch(`/v1/fields/${field.id}`, { options: options('silver') });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/^2 clients hold the option 'gold'/);
    expect((await api.get(`/v1/fields/${field.id}/usage`)).body).toEqual({ id: field.id, records_with_values: 2 });
    expect((await api.get(`/v1/clients/${a.id}`)).body.custom_fields[field.key]).toBe('gold');
  });

  it('changes a type only where every value stays valid; select → multi_select makes each value a list', async () => {
    const text = await aField({ type: 'text' });
    expect((await api.patch(`/v1/fields/${text.id}`, { type: 'long_text' })).body.type).toBe('long_text');
    const refused = await api.patch(`/v1/fields/${text.id}`, { type: 'number' });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/cannot become number/);

    const select = await aField({ object: 'deal', type: 'select', options: options('a', 'b') });
    const deal = await aDeal(api, { custom_fields: { [select.key]: 'a' } });
    expect((await api.patch(`/v1/fields/${select.id}`, { type: 'multi_select' })).body.type).toBe('multi_select');
    expect((await api.get(`/v1/deals/${deal.id}`)).body.custom_fields[select.key]).toEqual(['a']);
    expect((await api.patch(`/v1/fields/${select.id}`, { type: 'select' })).status).toBe(409);
  });

  it('deletes a field with its values on every record, in one go', async () => {
    const field = await aField({ object: 'lead', type: 'number' });
    const kept = await aField({ object: 'lead', type: 'text' });
    const held = await aLead(api, { custom_fields: { [field.key]: 3, [kept.key]: 'yes' } });
    const deleted = await api.delete(`/v1/fields/${field.id}`);
    expect(deleted.body.values_removed).toBe(1);
    expect((await api.get(`/v1/leads/${held.id}`)).body.custom_fields).toEqual({ [kept.key]: 'yes' });
  });
});

describe('access', () => {
  it('reads with fields:read, writes with fields:write, and nothing without', async () => {
    const reader = (await anApiKey(api, ['fields:read'])).secret;
    const writer = (await anApiKey(api, ['fields:write'])).secret;
    const other = (await anApiKey(api, ['leads:write'])).secret;
    const field = await aField({});
    expect((await api.get('/v1/fields', { key: reader })).status).toBe(200);
    expect((await api.post('/v1/fields', { object: 'lead', key: key('r'), label: 'R', type: 'text' }, { key: reader })).status).toBe(403);
    expect((await api.patch(`/v1/fields/${field.id}`, { label: 'W' }, { key: writer })).status).toBe(200);
    expect((await api.get('/v1/fields', { key: other })).status).toBe(403);
    expect((await api.delete(`/v1/fields/${field.id}`, { key: other })).status).toBe(403);
    // Another account's key finds none of this account's fields.
    const account = (await api.post('/_sandbox/accounts', { name: 'fields elsewhere', seed: null })).body;
    expect((await api.get(`/v1/fields/${field.id}`, { key: account.api_key })).status).toBe(404);
    expect(app.baseUrl).toMatch(/^http/);
  });
});
