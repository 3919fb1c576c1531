import { describe, expect, it } from 'vitest';
import { counts, expectFieldError, idOf, snapshot, validCreate, type BadInputEnv, type Resource, useBadInputEnv } from './bad-input-shared.js';

/**
 * Well-formed JSON whose content is wrong: 422 validation_failed naming the field, on POST and
 * PATCH of every resource, and nothing written.
 */
let env: BadInputEnv;

useBadInputEnv((e) => (env = e));

type Body = Record<string, unknown>;
/** [resource, what, the fields to put over a valid body, expected error path, expected error code]. */
type Case = [Resource, string, Body, string, string];

const long = (n: number) => 'x'.repeat(n);
const manyKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
const lineItem = (over: Body) => ({ line_items: [{ description: 'Work', quantity: 1, unit_price: 10, ...over }] });

/** Cases that hold for create and update alike. */
const SHARED: Case[] = [
  // Unknown fields, including near-miss typos of real ones.
  ['leads', 'an unknown field', { nickname: 'x' }, 'nickname', 'unknown_field'],
  ['leads', 'a typo of a field', { frist_name: 'Ada' }, 'frist_name', 'unknown_field'],
  ['clients', 'an unknown field', { vat_id: 'DE1' }, 'vat_id', 'unknown_field'],
  ['clients', 'an unknown address field', { address: { street: 'Main 1' } }, 'address.street', 'unknown_field'],
  ['deals', 'an unknown field', { amount: 10 }, 'amount', 'unknown_field'],
  ['deals', 'a read-only field (won_at)', { won_at: '2026-01-01T00:00:00.000Z' }, 'won_at', 'unknown_field'],
  ['invoices', 'an unknown field', { total: 100 }, 'total', 'unknown_field'],
  ['invoices', 'a read-only field (status)', { status: 'paid' }, 'status', 'unknown_field'],
  ['invoices', 'an unknown line item field', lineItem({ tax: 19 }), 'line_items.0.tax', 'unknown_field'],
  // Wrong types.
  ['deals', 'a string for value', { value: '10' }, 'value', 'invalid_type'],
  ['deals', 'a number for title', { title: 42 }, 'title', 'invalid_type'],
  ['leads', 'a number for title', { title: 42 }, 'title', 'invalid_type'],
  ['leads', 'an object for tags', { tags: { a: 'b' } }, 'tags', 'invalid_type'],
  ['clients', 'an object for tags', { tags: { a: 'b' } }, 'tags', 'invalid_type'],
  ['deals', 'a string for tags', { tags: 'vip' }, 'tags', 'invalid_type'],
  ['clients', 'a string for address', { address: 'Main street 1' }, 'address', 'invalid_type'],
  ['leads', 'an array for custom_fields', { custom_fields: ['a'] }, 'custom_fields', 'invalid_type'],
  ['deals', 'a string for win_probability', { win_probability: '0.5' }, 'win_probability', 'invalid_type'],
  ['invoices', 'a string for quantity', lineItem({ quantity: '1' }), 'line_items.0.quantity', 'invalid_type'],
  ['invoices', 'an object for line_items', { line_items: { description: 'Work' } }, 'line_items', 'invalid_type'],
  ['deals', 'a boolean for value', { value: true }, 'value', 'invalid_type'],
  // Bad enum values.
  ['deals', "stage 'closed'", { stage: 'closed' }, 'stage', 'invalid_value'],
  ['deals', "stage 'Won' (case)", { stage: 'Won' }, 'stage', 'invalid_value'],
  ['leads', "status 'hot'", { status: 'hot' }, 'status', 'invalid_value'],
  ['leads', "source 'linkedin'", { source: 'linkedin' }, 'source', 'invalid_value'],
  ['leads', "source 'WEB' (case)", { source: 'WEB' }, 'source', 'invalid_value'],
  ['clients', "kind 'organisation'", { kind: 'organisation' }, 'kind', 'invalid_value'],
  // Bad currency codes.
  ...(['eur', 'EURO', 'XXX', 'ABC', 'EU', ''] as const).flatMap((c): Case[] => [
    ['deals', `currency '${c}'`, { currency: c }, 'currency', 'invalid_value'],
    ['invoices', `currency '${c}'`, { currency: c }, 'currency', 'invalid_value'],
  ]),
  // Negative, out-of-range and over-precise money.
  ['deals', 'a negative value', { value: -1 }, 'value', 'too_small'],
  ['deals', 'a negative cent', { value: -0.01 }, 'value', 'too_small'],
  ['deals', 'a value past 1e13', { value: 1e14 }, 'value', 'too_big'],
  ['invoices', 'a negative unit_price', lineItem({ unit_price: -5 }), 'line_items.0.unit_price', 'too_small'],
  ['invoices', 'a zero quantity', lineItem({ quantity: 0 }), 'line_items.0.quantity', 'too_small'],
  ['deals', '19.999 EUR', { value: 19.999, currency: 'EUR' }, 'value', 'too_many_decimals'],
  ['deals', '1.5 JPY', { value: 1.5, currency: 'JPY' }, 'value', 'too_many_decimals'],
  ['deals', '1.2345 KWD', { value: 1.2345, currency: 'KWD' }, 'value', 'too_many_decimals'],
  ['deals', '0.001 USD', { value: 0.001, currency: 'USD' }, 'value', 'too_many_decimals'],
  // Over-precise at size: a tolerance relative to the amount once rounded these in silence.
  ['deals', '5000.005 EUR', { value: 5000.005, currency: 'EUR' }, 'value', 'too_many_decimals'],
  ['deals', '123456.789 EUR', { value: 123456.789, currency: 'EUR' }, 'value', 'too_many_decimals'],
  ['deals', '9999999999999.001 EUR', { value: 9999999999999.001, currency: 'EUR' }, 'value', 'too_many_decimals'],
  ['deals', '4000000000.0001 KWD', { value: 4000000000.0001, currency: 'KWD' }, 'value', 'too_many_decimals'],
  ['deals', '9007199254740.992 KWD (2^53 minor units)', { value: 9007199254740.992, currency: 'KWD' }, 'value', 'too_big'],
  ['invoices', 'unit_price 123456.789 EUR', { currency: 'EUR', ...lineItem({ unit_price: 123456.789 }) }, 'line_items.0.unit_price', 'too_many_decimals'],
  ['invoices', 'unit_price 19.999 EUR', { currency: 'EUR', ...lineItem({ unit_price: 19.999 }) }, 'line_items.0.unit_price', 'too_many_decimals'],
  ['invoices', 'unit_price 1.5 JPY', { currency: 'JPY', ...lineItem({ unit_price: 1.5 }) }, 'line_items.0.unit_price', 'too_many_decimals'],
  ['invoices', 'unit_price 1.2345 KWD', { currency: 'KWD', ...lineItem({ unit_price: 1.2345 }) }, 'line_items.0.unit_price', 'too_many_decimals'],
  [
    'invoices',
    'the second line item over-precise',
    {
      currency: 'EUR',
      line_items: [
        { description: 'a', quantity: 1, unit_price: 1 },
        { description: 'b', quantity: 1, unit_price: 0.005 },
      ],
    },
    'line_items.1.unit_price',
    'too_many_decimals',
  ],
  ['invoices', 'no line items', { line_items: [] }, 'line_items', 'too_small'],
  [
    'invoices',
    '101 line items',
    { line_items: Array.from({ length: 101 }, () => ({ description: 'x', quantity: 1, unit_price: 1 })) },
    'line_items',
    'too_big',
  ],
  // Bad email addresses.
  ...(['not-an-email', 'a@', '@example.com', 'a b@example.com', 'ada@example..com'] as const).flatMap((e): Case[] => [
    ['leads', `email '${e}'`, { email: e }, 'email', 'invalid_format'],
    ['clients', `email '${e}'`, { email: e }, 'email', 'invalid_format'],
  ]),
  ['invoices', 'a bad recipient_email', { recipient_email: 'nobody' }, 'recipient_email', 'invalid_format'],
  // Tags: at most 20, each 1..50 characters.
  ['leads', '21 tags', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags', 'too_big'],
  ['clients', '21 tags', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags', 'too_big'],
  ['deals', '21 tags', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags', 'too_big'],
  ['leads', 'a 51-character tag', { tags: ['ok', long(51)] }, 'tags.1', 'too_big'],
  ['deals', 'a 51-character tag', { tags: [long(51)] }, 'tags.0', 'too_big'],
  ['clients', 'an empty tag', { tags: [''] }, 'tags.0', 'too_small'],
  ['leads', 'a number as a tag', { tags: [1] }, 'tags.0', 'invalid_type'],
  // custom_fields: at most 50 keys, flat values.
  ['leads', '51 custom fields', { custom_fields: manyKeys(51) }, 'custom_fields', 'custom'],
  ['clients', '51 custom fields', { custom_fields: manyKeys(51) }, 'custom_fields', 'custom'],
  ['deals', '51 custom fields', { custom_fields: manyKeys(51) }, 'custom_fields', 'custom'],
  ['leads', 'a nested object value', { custom_fields: { plan: { tier: 'gold' } } }, 'custom_fields.plan', 'invalid_union'],
  ['deals', 'an array value', { custom_fields: { seats: [1, 2] } }, 'custom_fields.seats', 'invalid_union'],
  ['clients', 'an empty key', { custom_fields: { '': 'x' } }, 'custom_fields.', 'invalid_key'],
  // Bad ISO dates.
  ...(['2026-02-30', '2026-13-01', '2026-1-5', '20260105', '05/01/2026', 'tomorrow', '2026-01-05T00:00:00Z'] as const).flatMap((d): Case[] => [
    ['deals', `expected_close_date '${d}'`, { expected_close_date: d }, 'expected_close_date', 'invalid_format'],
    ['invoices', `due_date '${d}'`, { due_date: d }, 'due_date', 'invalid_format'],
  ]),
  // Strings past their limits, and bad codes inside nested objects.
  ['deals', 'a 201-character title', { title: long(201) }, 'title', 'too_big'],
  ['leads', 'a 201-character company', { company: long(201) }, 'company', 'too_big'],
  ['leads', 'a 256-character external_id', { external_id: long(256) }, 'external_id', 'too_big'],
  ['clients', "country 'Germany'", { address: { country: 'Germany' } }, 'address.country', 'custom'],
  ['clients', "country 'de' (case)", { address: { country: 'de' } }, 'address.country', 'custom'],
  ['deals', 'win_probability 1.5', { win_probability: 1.5 }, 'win_probability', 'too_big'],
];

/** Cases only for create (required fields), or only for update (nulling required fields). */
const CREATE_ONLY: Case[] = [
  ['leads', 'no naming field', { first_name: undefined, email: undefined, phone: '+49 30 1' }, 'first_name', 'custom'],
  ['clients', 'no name', { name: undefined }, 'name', 'invalid_type'],
  ['deals', 'no stage', { stage: undefined }, 'stage', 'invalid_value'],
  ['deals', 'no currency', { currency: undefined }, 'currency', 'invalid_value'],
  ['invoices', 'no client_id', { client_id: undefined }, 'client_id', 'invalid_type'],
  ['invoices', 'an unknown client_id', { client_id: 'cli_00000000000000000000000000' }, 'client_id', 'not_found'],
  ['deals', 'an unknown client_id', { client_id: 'cli_00000000000000000000000000' }, 'client_id', 'not_found'],
  ['invoices', 'a non-boolean send', { send: 'yes' }, 'send', 'invalid_type'],
];
const UPDATE_ONLY: Case[] = [
  ['deals', 'title null', { title: null }, 'title', 'invalid_type'],
  ['deals', 'value null', { value: null }, 'value', 'invalid_type'],
  ['clients', 'name null', { name: null }, 'name', 'invalid_type'],
  ['leads', 'clearing every naming field', { first_name: null, last_name: null, email: null, company: null }, 'first_name', 'required'],
  // The fixture deal is 19.99 EUR and the draft invoice has a 19.99 line: JPY has no cents.
  ['deals', 'a currency whose digits the stored value exceeds', { currency: 'JPY' }, 'value', 'too_many_decimals'],
  ['invoices', 'a currency whose digits the stored lines exceed', { currency: 'JPY' }, 'line_items.0.unit_price', 'too_many_decimals'],
  ['invoices', 'an unknown deal_id', { deal_id: 'deal_00000000000000000000000000' }, 'deal_id', 'not_found'],
];

const withoutUndefined = (body: Body) => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));

describe('POST with invalid content is 422 validation_failed and creates nothing', () => {
  it.each([...SHARED, ...CREATE_ONLY])('POST %s with %s', async (resource, _what, over, path, code) => {
    const before = await counts(env);
    const res = await env.api.post(`/v1/${resource}`, withoutUndefined({ ...validCreate(resource, env.ids), ...over }));
    expectFieldError(res, path, code);
    expect(await counts(env)).toEqual(before);
  });
});

describe('PATCH with invalid content is 422 validation_failed and changes nothing', () => {
  it.each([...SHARED, ...UPDATE_ONLY])('PATCH %s with %s', async (resource, _what, over, path, code) => {
    const id = idOf(env, resource);
    const before = await counts(env);
    const record = await snapshot(env, resource, id);
    const res = await env.api.patch(`/v1/${resource}/${id}`, over);
    expectFieldError(res, path, code);
    expect(await snapshot(env, resource, id)).toEqual(record);
    expect(await counts(env)).toEqual(before);
  });
});

describe('the controls: the valid bodies and the limits themselves pass', () => {
  it('each valid create body is accepted, so the failures above are caused by the bad field', async () => {
    for (const resource of ['leads', 'clients', 'deals', 'invoices'] as const) {
      const res = await env.api.post(`/v1/${resource}`, validCreate(resource, env.ids));
      expect(res.status, res.text).toBe(201);
    }
  });

  it('a request part is judged the same before and after zod compiles its fast path (the first 20 parses are interpreted)', async () => {
    // A route this file asks nothing else of: its first parses are zod's interpreter, later ones its generated code.
    const answers = async (path: string) => {
      const seen: unknown[] = [];
      for (let i = 0; i < 25; i++) {
        const res = await env.api.get(path);
        seen.push([res.status, res.status === 200 ? res.body : { ...res.body, request_id: undefined }]);
      }
      return seen;
    };
    const refused = await answers('/v1/invoices?limit=0&status=unpaid&created_after=yesterday');
    expect(refused[0]).toMatchObject([400, { code: 'invalid_request' }]);
    expect((refused[0] as [number, { errors: unknown[] }])[1].errors).toHaveLength(3);
    expect(new Set(refused.map((answer) => JSON.stringify(answer))).size).toBe(1);
    const listed = await answers('/v1/invoices?limit=2&status=draft');
    const [status, page] = listed[0] as [number, { data: { status: string }[] }];
    expect(status).toBe(200);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((invoice) => invoice.status === 'draft')).toBe(true);
    expect(new Set(listed.map((answer) => JSON.stringify(answer))).size).toBe(1);
  });

  it('exactly 20 tags of 50 characters, 50 custom fields and the currency digits are accepted', async () => {
    for (const key of Object.keys(manyKeys(50))) {
      expect((await env.api.post('/v1/fields', { object: 'lead', key, label: key, type: 'number' })).status).toBe(201);
    }
    const lead = await env.api.post('/v1/leads', {
      first_name: 'Limits',
      tags: Array.from({ length: 20 }, (_, i) => `${i}`.padStart(50, 't')),
      custom_fields: manyKeys(50),
    });
    expect(lead.status, lead.text).toBe(201);
    for (const [value, currency] of [
      [19.99, 'EUR'],
      [1500, 'JPY'],
      [1.234, 'KWD'],
    ] as const) {
      const deal = await env.api.post('/v1/deals', { title: 'Digits', value, currency, stage: 'lead_in' });
      expect(deal.status, deal.text).toBe(201);
      expect(deal.body.value).toBe(value);
    }
  });
});
