import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/app.js';
import { aClient, aDeal } from '../helpers/factories.js';
import type { ApiClient } from '../helpers/sandbox.js';

/**
 * Lists filtered and sorted by custom fields over HTTP (docs/reference/custom-fields.md#lists): each
 * filter kind and the sort read page by page with small pages, so every answer also crosses cursors.
 */
let api: ApiClient;
useApp({}, (_app, client) => (api = client));

const TIERS = ['gold', 'silver', 'bronze'] as const;
const PRODUCTS = ['platform', 'services', 'support'] as const;
const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

interface Made {
  id: string;
  tier?: string;
  employees?: number;
  vip?: boolean;
  signed_on?: string;
  products?: string[];
  city?: string;
}
const leads: Made[] = [];

async function define(object: string, key: string, type: string, extra: Record<string, unknown> = {}) {
  const res = await api.post('/v1/fields', { object, key, label: key, type, required: false, ...extra });
  if (res.status !== 201) throw new Error(`POST /v1/fields answered ${res.status}: ${res.text}`);
}

beforeAll(async () => {
  await define('lead', 'tier', 'select', { options: options(TIERS) });
  await define('lead', 'employees', 'number');
  await define('lead', 'vip', 'boolean');
  await define('lead', 'signed_on', 'date');
  await define('lead', 'products', 'multi_select', { options: options(PRODUCTS) });
  await define('lead', 'city', 'text');
  for (let i = 0; i < 24; i++) {
    // Every field is missing on some leads; employees repeat, so the sort's ties go by id.
    const values: Omit<Made, 'id'> = {
      ...(i % 5 !== 4 ? { tier: TIERS[i % 3] } : {}),
      ...(i % 7 !== 6 ? { employees: (i % 9) * 10 } : {}),
      ...(i % 4 !== 3 ? { vip: i % 2 === 0 } : {}),
      ...(i % 6 !== 5 ? { signed_on: `2026-0${1 + (i % 9)}-1${i % 10}` } : {}),
      ...(i % 3 !== 2 ? { products: i % 2 ? [PRODUCTS[0], PRODUCTS[2]] : [PRODUCTS[1]] } : {}),
      ...(i % 2 ? { city: i % 4 === 1 ? 'Berlin' : 'berlin' } : {}),
    };
    const res = await api.post('/v1/leads', { first_name: `Lead ${i}`, custom_fields: values });
    if (res.status !== 201) throw new Error(`POST /v1/leads answered ${res.status}: ${res.text}`);
    leads.push({ id: res.body.id, ...values });
  }
});

/** Every page of a list, `limit` at a time, following next_cursor; the ids in the order given. */
async function allIds(path: string, limit = 3): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const res: { status: number; text: string; body: any } = await api.get(
      `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    ids.push(...res.body.data.map((r: { id: string }) => r.id));
    cursor = res.body.next_cursor;
    if (!cursor) return ids;
  }
  throw new Error('more than 100 pages');
}

const idsOf = (made: Made[]) => made.map((l) => l.id);
const byId = (a: Made, b: Made) => (a.id < b.id ? -1 : 1);

describe('filters by a custom field', () => {
  it('matches a select exactly, page by page in id order', async () => {
    const expected = idsOf(leads.filter((l) => l.tier === 'gold'));
    expect(expected.length).toBeGreaterThan(3);
    expect(await allIds('/v1/leads?custom_fields.tier=gold')).toEqual(expected);
    expect(await allIds('/v1/leads?custom_fields.tier=gold&order=desc')).toEqual([...expected].reverse());
  });

  it('compares a number field as numbers: 40, 40.0 and 4e1 are the same value', async () => {
    const expected = idsOf(leads.filter((l) => l.employees === 40));
    expect(expected.length).toBeGreaterThan(0);
    for (const v of ['40', '40.0', '4e1']) expect(await allIds(`/v1/leads?custom_fields.employees=${v}`)).toEqual(expected);
  });

  it('matches booleans, dates and text exactly (text with its case)', async () => {
    expect(await allIds('/v1/leads?custom_fields.vip=true')).toEqual(idsOf(leads.filter((l) => l.vip === true)));
    expect(await allIds('/v1/leads?custom_fields.vip=false')).toEqual(idsOf(leads.filter((l) => l.vip === false)));
    const date = leads.find((l) => l.signed_on)!.signed_on!;
    expect(await allIds(`/v1/leads?custom_fields.signed_on=${date}`)).toEqual(idsOf(leads.filter((l) => l.signed_on === date)));
    expect(await allIds('/v1/leads?custom_fields.city=Berlin')).toEqual(idsOf(leads.filter((l) => l.city === 'Berlin')));
  });

  it('finds a multi_select value among the values a record holds', async () => {
    const expected = idsOf(leads.filter((l) => l.products?.includes('platform')));
    expect(expected.length).toBeGreaterThan(3);
    expect(await allIds('/v1/leads?custom_fields.products=platform')).toEqual(expected);
  });

  it('takes ranges of numbers and dates, bounds included, and records without a value never match', async () => {
    const numbers = leads.filter((l) => l.employees !== undefined && l.employees >= 30 && l.employees <= 60);
    expect(await allIds('/v1/leads?custom_fields.employees[gte]=30&custom_fields.employees[lte]=60')).toEqual(idsOf(numbers));
    expect(await allIds('/v1/leads?custom_fields.employees[lte]=20')).toEqual(idsOf(leads.filter((l) => l.employees !== undefined && l.employees <= 20)));
    const dates = leads.filter((l) => l.signed_on !== undefined && l.signed_on >= '2026-05-01');
    expect(await allIds('/v1/leads?custom_fields.signed_on[gte]=2026-05-01')).toEqual(idsOf(dates));
    // Brackets percent-encoded, as some clients send them.
    expect(await allIds('/v1/leads?custom_fields.employees%5Bgte%5D=30&custom_fields.employees%5Blte%5D=60')).toEqual(idsOf(numbers));
  });

  it('combines with the other filters and with one another', async () => {
    const expected = idsOf(leads.filter((l) => l.tier === 'silver' && (l.employees ?? -1) >= 10));
    expect(await allIds('/v1/leads?custom_fields.tier=silver&custom_fields.employees[gte]=10&status=new')).toEqual(expected);
  });
});

describe('sorting by a custom field', () => {
  const withValue = () => leads.filter((l) => l.employees !== undefined);
  const ascending = () => [...withValue()].sort((a, b) => a.employees! - b.employees! || byId(a, b));

  it('orders by the value, then id, records without a value last; desc is its exact reverse', async () => {
    const expected = [...idsOf(ascending()), ...idsOf(leads.filter((l) => l.employees === undefined))];
    expect(await allIds('/v1/leads?sort=custom_fields.employees')).toEqual(expected);
    expect(await allIds('/v1/leads?sort=custom_fields.employees&order=desc')).toEqual([...expected].reverse());
  });

  it('pages a range of the field it is sorted by, both ways', async () => {
    const range = ascending().filter((l) => l.employees! >= 30 && l.employees! <= 70);
    const path = '/v1/leads?sort=custom_fields.employees&custom_fields.employees[gte]=30&custom_fields.employees[lte]=70';
    expect(await allIds(path, 2)).toEqual(idsOf(range));
    expect(await allIds(`${path}&order=desc`, 2)).toEqual(idsOf(range).reverse());
  });

  it('sorts text without case, and combines with a filter', async () => {
    const gold = [...ascending(), ...leads.filter((l) => l.employees === undefined)].filter((l) => l.tier === 'gold');
    expect(gold.some((l) => l.employees === undefined)).toBe(true);
    expect(await allIds('/v1/leads?sort=custom_fields.employees&custom_fields.tier=gold', 2)).toEqual(idsOf(gold));
    const cities = await allIds('/v1/leads?sort=custom_fields.city');
    // Berlin and berlin are one value to the sort: by id among them, then the leads without a city.
    expect(cities).toEqual([...idsOf(leads.filter((l) => l.city)), ...idsOf(leads.filter((l) => !l.city))]);
  });
});

describe('cursors', () => {
  it('belong to their filter and sort: reused with another, they are refused', async () => {
    const gold = await api.get('/v1/leads?custom_fields.tier=gold&limit=2');
    const cursor = encodeURIComponent(gold.body.next_cursor);
    for (const other of [
      'custom_fields.tier=silver',
      'custom_fields.tier=gold&custom_fields.employees[gte]=0',
      'custom_fields.tier=gold&sort=custom_fields.employees',
      '',
    ]) {
      const res = await api.get(`/v1/leads?${other}&limit=2&cursor=${cursor}`);
      expect(res.status, other).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
    const range = await api.get('/v1/leads?custom_fields.employees[gte]=10&limit=2');
    const moved = await api.get(`/v1/leads?custom_fields.employees[gte]=20&limit=2&cursor=${encodeURIComponent(range.body.next_cursor)}`);
    expect(moved.body.code).toBe('invalid_cursor');
    // The same filters in another order are the same list.
    const both = await api.get('/v1/leads?custom_fields.tier=gold&custom_fields.vip=true&limit=1');
    const swapped = await api.get(`/v1/leads?custom_fields.vip=true&custom_fields.tier=gold&limit=1&cursor=${encodeURIComponent(both.body.next_cursor)}`);
    expect(swapped.status).toBe(200);
  });
});

describe('refusals', () => {
  it.each([
    ['an undefined key', 'custom_fields.nope=1', 'custom_fields.nope', /No lead field has the key 'nope'/],
    ['a range of a select', 'custom_fields.tier[gte]=gold', 'custom_fields.tier[gte]', /select/],
    ['a range of a boolean', 'custom_fields.vip[lte]=true', 'custom_fields.vip[lte]', /boolean/],
    ['an unknown operator', 'custom_fields.employees[gt]=1', 'custom_fields.employees[gt]', /\[gte\] or \[lte\]/],
    ['a number field given a word', 'custom_fields.employees=many', 'custom_fields.employees', /number/],
    ['a boolean given yes', 'custom_fields.vip=yes', 'custom_fields.vip', /true or false/],
    ['a date not as YYYY-MM-DD', 'custom_fields.signed_on=28.11.2026', 'custom_fields.signed_on', /YYYY-MM-DD/],
    ['an option the field does not have', 'custom_fields.tier=platinum', 'custom_fields.tier', /gold, silver, bronze/],
    ['a key that cannot be one', 'custom_fields.Tier=gold', 'custom_fields.Tier', /not a field key/],
    ['the same parameter twice', 'custom_fields.tier=gold&custom_fields.tier=silver', 'custom_fields.tier', /once/],
    ['a sort by an undefined key', 'sort=custom_fields.nope', 'sort', /No lead field has the key 'nope'/],
    ['a sort by a multi_select', 'sort=custom_fields.products', 'sort', /multi_select/],
  ])('%s is 400 invalid_request naming the parameter', async (_what, query, path, message) => {
    const res = await api.get(`/v1/leads?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.errors[0].path).toBe(path);
    expect(res.body.detail).toMatch(message);
  });

  it('keeps refusing every other unknown parameter', async () => {
    const res = await api.get('/v1/leads?custom_fields.tier=gold&tier=gold');
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ path: 'tier', code: 'unknown_field' });
  });

  it('knows each object its own fields: a lead field is no client field', async () => {
    const res = await api.get('/v1/clients?custom_fields.tier=gold');
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/No client field has the key 'tier'/);
  });
});

describe('clients and deals', () => {
  it('filter and sort by their own fields', async () => {
    await define('client', 'employees', 'number');
    const sizes = [300, 20, 4000, 20];
    const clients = [];
    for (const employees of sizes) clients.push(await aClient(api, { custom_fields: { employees } }));
    const order = clients.map((c, i) => ({ id: c.id as string, employees: sizes[i]! })).sort((a, b) => a.employees - b.employees || (a.id < b.id ? -1 : 1));
    expect(await allIds('/v1/clients?sort=custom_fields.employees', 2)).toEqual(order.map((c) => c.id));
    expect(await allIds('/v1/clients?custom_fields.employees[gte]=300', 1)).toEqual([clients[0]!.id, clients[2]!.id]);

    await define('deal', 'segment', 'select', { options: options(['smb', 'enterprise']) });
    const smb = await aDeal(api, { custom_fields: { segment: 'smb' } });
    await aDeal(api, { custom_fields: { segment: 'enterprise' } });
    expect(await allIds('/v1/deals?custom_fields.segment=smb')).toEqual([smb.id]);
  });
});
