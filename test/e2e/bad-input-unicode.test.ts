import { beforeAll, describe, expect, it } from 'vitest';
import { counts, type BadInputEnv, useBadInputEnv } from './bad-input-shared.js';

/**
 * Strings that break naive code (emoji, right-to-left text, combining marks, NUL, SQL and quote
 * characters) are stored and returned exactly, in every place a string goes: fields, tags,
 * custom_fields, filters and full-text search.
 */
let env: BadInputEnv;

useBadInputEnv((e) => (env = e));
// The custom field the strings are stored in (a key no field defines is refused: see below).
beforeAll(async () => {
  expect((await env.api.post('/v1/fields', { object: 'lead', key: 'note', label: 'Note', type: 'long_text' })).status).toBe(201);
});

const STRINGS: [string, string][] = [
  ['emoji', 'Ada 👩🏽‍💻 🚀'],
  ['a ZWJ family and flags', '👨‍👩‍👧‍👦 🇩🇪🏳️‍🌈'],
  ['Arabic (RTL)', 'مرحبا بالعالم'],
  ['Hebrew with an RLO override', 'שלום \u202Eevil\u202C'],
  ['a combining accent (NFD)', 'Cafe\u0301'],
  ['a precomposed accent (NFC)', 'Caf\u00e9'],
  ['stacked combining marks', 'Z\u0351\u0352\u0353a\u0354\u0355l\u0356g\u0357o'],
  ['NUL in the middle', 'a\u0000b'],
  ['SQL injection', "'; DROP TABLE leads; --"],
  ['Bobby Tables', "Robert'); DROP TABLE clients;--"],
  ['double quotes', 'say "hello" ""'],
  ['backslashes', 'C:\\Users\\ada\\ \\" \\\\n \\u0041'],
  ['control characters', 'tab\there\nnew line\r\n'],
  ['BOM, zero-width and line separators', '\uFEFFa\u200Bb\u2028c\u2029d'],
  ['astral and CJK', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 漢字 한국어'],
  ['format strings and markup', '%s %d ${x} {{x}} <script>alert(1)</script>'],
  ['LIKE and FTS operators', '100% _a_ * NEAR(a b) OR AND NOT ^x'],
];

/** The tag form of a string: tags are at most 50 characters (UTF-16 units, as zod counts). */
const asTag = (s: string) => s.slice(0, 50);

describe('unicode and quote-laden strings round-trip exactly', () => {
  it.each(STRINGS)('%s on a lead: create, read, list filter, update', async (_name, s) => {
    const created = await env.api.post('/v1/leads', {
      first_name: s,
      company: s,
      notes: `${s}\n${s}`,
      tags: [asTag(s)],
      custom_fields: { note: s },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const expected = {
      first_name: s,
      company: s,
      notes: `${s}\n${s}`,
      tags: [asTag(s)],
      custom_fields: { note: s },
    };
    expect(created.body).toMatchObject(expected);

    const read = await env.api.get(`/v1/leads/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject(expected);
    expect(Object.keys(read.body.custom_fields)).toEqual(['note']);
    // The string as a custom field key no field defines: refused, and named exactly in the error.
    const unknownKey = await env.api.post('/v1/leads', { first_name: 'Key', custom_fields: { [s.slice(0, 100)]: s } });
    expect(unknownKey.status).toBe(422);
    expect(unknownKey.body.errors[0]).toMatchObject({ path: `custom_fields.${s.slice(0, 100)}`, code: 'unknown_field' });

    // The tag filter finds exactly this lead: the string is a value to the database, never SQL.
    const byTag = await env.api.get(`/v1/leads?tag=${encodeURIComponent(asTag(s))}`);
    expect(byTag.status).toBe(200);
    expect(byTag.body.data.map((l: { id: string }) => l.id)).toEqual([id]);

    const patched = await env.api.patch(`/v1/leads/${id}`, { last_name: s, title: s });
    expect(patched.status).toBe(200);
    expect((await env.api.get(`/v1/leads/${id}`)).body).toMatchObject({ ...expected, last_name: s, title: s });
    expect((await env.api.delete(`/v1/leads/${id}`)).status).toBe(200);
  });

  it.each(STRINGS)('%s as a client name, deal title and invoice line description', async (_name, s) => {
    const client = await env.api.post('/v1/clients', { name: s, email: 'u@example.test', address: { city: s, line1: s } });
    expect(client.status, client.text).toBe(201);
    expect((await env.api.get(`/v1/clients/${client.body.id}`)).body).toMatchObject({ name: s, address: { city: s, line1: s } });

    const deal = await env.api.post('/v1/deals', { title: s, value: 1, currency: 'EUR', stage: 'lead_in', lost_reason: s });
    expect(deal.status, deal.text).toBe(201);
    expect((await env.api.get(`/v1/deals/${deal.body.id}`)).body).toMatchObject({ title: s, lost_reason: s });

    const invoice = await env.api.post('/v1/invoices', {
      client_id: client.body.id,
      send: false,
      line_items: [{ description: s, quantity: 1, unit_price: 1 }],
    });
    expect(invoice.status, invoice.text).toBe(201);
    expect((await env.api.get(`/v1/invoices/${invoice.body.id}`)).body.line_items[0].description).toBe(s);
  });

  it('NFC and NFD spellings stay distinct (nothing normalises behind the caller)', async () => {
    const nfd = await env.api.post('/v1/leads', { first_name: 'Jose\u0301' });
    const nfc = await env.api.post('/v1/leads', { first_name: 'Jos\u00e9' });
    expect((await env.api.get(`/v1/leads/${nfd.body.id}`)).body.first_name).toBe('Jose\u0301');
    expect((await env.api.get(`/v1/leads/${nfc.body.id}`)).body.first_name).toBe('Jos\u00e9');
  });

  it('the response bytes are UTF-8 JSON of exactly the string sent', async () => {
    const s = 'Zoë 👩🏽‍💻 مرحبا "q" \\ \u0000';
    const created = await env.api.post('/v1/leads', { first_name: s });
    const response = await fetch(`${env.sandbox.baseUrl}/v1/leads/${created.body.id}`, { headers: { authorization: `Bearer ${env.sandbox.apiKey}` } });
    expect(response.headers.get('content-type')).toMatch(/^application\/json; charset=utf-8/);
    const bytes = Buffer.from(await response.arrayBuffer());
    env.statuses.push(response.status);
    expect(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)).first_name).toBe(s);
    expect(bytes.includes(Buffer.from(JSON.stringify(s)))).toBe(true);
  });
});

describe('hostile strings in queries are values, not SQL or FTS syntax', () => {
  const QUERIES = [
    "'; DROP TABLE leads; --",
    "' OR '1'='1",
    '"',
    '""',
    '*',
    'NEAR(a b)',
    'a OR',
    'AND',
    '^',
    '\u0000',
    'a\u0000b',
    '\\',
    '%',
    '_',
    '👩🏽‍💻',
    "Robert'); DROP TABLE clients;--",
  ];

  it.each(QUERIES)('client search q=%j answers 200 and the tables survive', async (text) => {
    const before = await counts(env);
    const res = await env.api.get(`/v1/clients?q=${encodeURIComponent(text)}`);
    expect(res.status, res.text).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(await counts(env)).toEqual(before);
  });

  it.each(QUERIES)('filters email=%j, tag, external_id answer 200 with no rows', async (text) => {
    for (const resource of ['leads', 'clients'] as const) {
      for (const filter of ['email', 'tag', 'external_id']) {
        const res = await env.api.get(`/v1/${resource}?${filter}=${encodeURIComponent(text)}`);
        expect(res.status, res.text).toBe(200);
        expect(res.body.data).toEqual([]);
      }
    }
  });

  it('search still finds a client by a non-ASCII name and a NUL does not break it', async () => {
    const client = await env.api.post('/v1/clients', { name: 'Müller Logistik', email: 'info@mueller.test' });
    expect(client.status).toBe(201);
    for (const text of ['Müller', 'müll', 'Müller\u0000Logistik']) {
      const res = await env.api.get(`/v1/clients?q=${encodeURIComponent(text)}`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((c: { id: string }) => c.id)).toContain(client.body.id);
    }
  });
});
