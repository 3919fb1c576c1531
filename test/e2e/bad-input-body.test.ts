import { describe, expect, it } from 'vitest';
import {
  JSON_TYPE,
  RESOURCES,
  counts,
  expectFieldError,
  expectProblem,
  idOf,
  snapshot,
  validCreate,
  type BadInputEnv,
  type Resource,
  useBadInputEnv,
} from './bad-input-shared.js';

/** Request bodies that never reach validation: broken JSON, other media types, too large, poisoned keys. */
let env: BadInputEnv;

useBadInputEnv((e) => (env = e));

type Write = [Resource, 'POST' | 'PATCH'];
const WRITES: Write[] = RESOURCES.flatMap(
  (r) =>
    [
      [r, 'POST'],
      [r, 'PATCH'],
    ] as Write[],
);
const target = ([resource, method]: Write) => (method === 'POST' ? `/v1/${resource}` : `/v1/${resource}/${idOf(env, resource)}`);

/** Sends a raw write and checks that no record was added and the PATCH target did not change. */
async function rawWrite(write: Write, body: string | Buffer | undefined, headers: Record<string, string>) {
  const [resource, method] = write;
  const before = await counts(env);
  const record = method === 'PATCH' ? await snapshot(env, resource, idOf(env, resource)) : undefined;
  const res = await env.api.request(method, target(write), { ...(body !== undefined ? { rawBody: body } : {}), headers });
  expect(await counts(env)).toEqual(before);
  if (record) expect(await snapshot(env, resource, idOf(env, resource))).toEqual(record);
  return res;
}

const MALFORMED: [string, string][] = [
  ['truncated', '{"first_name": "Ada", "title": "CE'],
  ['a trailing comma', '{"first_name": "Ada",}'],
  ['single quotes', "{'first_name': 'Ada'}"],
  ['an unquoted key', '{first_name: "Ada"}'],
  ['garbage after the object', '{"first_name": "Ada"} {"x": 1}'],
  ['NaN', '{"value": NaN}'],
  ['a comment', '{"first_name": "Ada" /* hi */}'],
];

describe('malformed JSON is 400 malformed_json', () => {
  const cases = WRITES.flatMap((w) => MALFORMED.map(([name, body]) => [w[1], w[0], name, body] as const));
  it.each(cases)('%s %s with %s', async (method, resource, _name, body) => {
    const res = await rawWrite([resource, method], body, JSON_TYPE);
    expectProblem(res, 400, 'malformed_json');
  });
});

describe('an empty body with Content-Type application/json', () => {
  // An empty body is no body: where the route needs one, validation says so at the root (422).
  it.each(WRITES.map(([r, m]) => [m, r] as const))('%s %s is 422 at the root', async (method, resource) => {
    const res = await rawWrite([resource, method], '', JSON_TYPE);
    expectFieldError(res, '', 'invalid_type');
  });

  it('is fine on actions whose body is optional (many HTTP libraries always send the header)', async () => {
    const deal = await env.api.post('/v1/deals', { title: 'Header only', value: 1, currency: 'EUR', stage: 'proposal' });
    const lost = await env.api.request('POST', `/v1/deals/${deal.body.id}/lose`, { rawBody: '', headers: JSON_TYPE });
    expect(lost.status, lost.text).toBe(200);
    expect(lost.body.stage).toBe('lost');
    const gone = await env.api.request('DELETE', `/v1/deals/${deal.body.id}`, { rawBody: '', headers: JSON_TYPE });
    expect(gone.status, gone.text).toBe(200);
  });

  it.each(RESOURCES)('a JSON null, array or string instead of an object on POST %s is 422 at the root', async (resource) => {
    for (const body of ['null', '[]', '"text"', '42']) {
      const res = await rawWrite([resource, 'POST'], body, JSON_TYPE);
      expectFieldError(res, '', 'invalid_type');
    }
  });
});

describe('other media types on /v1 writes are 415 unsupported_media_type', () => {
  const boundary = '----crmBadInput';
  const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="first_name"\r\n\r\nAda\r\n--${boundary}--\r\n`;
  const TYPES: [string, string, string][] = [
    ['text/plain', 'text/plain', '{"first_name":"Ada"}'],
    ['text/plain; charset=utf-8', 'text/plain; charset=utf-8', '{"first_name":"Ada"}'],
    ['form-urlencoded', 'application/x-www-form-urlencoded', 'first_name=Ada&name=Acme'],
    ['multipart', `multipart/form-data; boundary=${boundary}`, multipart],
    ['octet-stream', 'application/octet-stream', '{"first_name":"Ada"}'],
    ['text/json', 'text/json', '{"first_name":"Ada"}'],
  ];
  const cases = WRITES.flatMap((w) => TYPES.map(([name, type, body]) => [w[1], w[0], name, type, body] as const));
  it.each(cases)('%s %s as %s', async (method, resource, _name, type, body) => {
    const res = await rawWrite([resource, method], body, { 'content-type': type });
    expectProblem(res, 415, 'unsupported_media_type');
  });

  it('an action with a body (POST /v1/deals/{id}/lose as text/plain) is 415 and the deal stays open', async () => {
    const before = await snapshot(env, 'deals', env.ids.deal);
    const res = await env.api.request('POST', `/v1/deals/${env.ids.deal}/lose`, { rawBody: '{"reason":"x"}', headers: { 'content-type': 'text/plain' } });
    expectProblem(res, 415, 'unsupported_media_type');
    expect(await snapshot(env, 'deals', env.ids.deal)).toEqual(before);
  });

  it('application/json with a charset parameter is accepted (control)', async () => {
    const res = await env.api.request('POST', '/v1/leads', {
      rawBody: '{"first_name":"Charset"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(201);
    expect((await env.api.delete(`/v1/leads/${res.body.id}`)).status).toBe(200);
  });
});

describe('a body over 10 MB is 413 payload_too_large', () => {
  const LIMIT = 10 * 1024 * 1024;
  const padded = (size: number) => {
    const head = '{"first_name":"Big","notes":"';
    return head + 'x'.repeat(size - head.length - 2) + '"}';
  };

  it.each(WRITES.map(([r, m]) => [m, r] as const))('%s %s with 10 MB + 1 byte, and the next request is served', async (method, resource) => {
    const body = padded(LIMIT + 1);
    expect(Buffer.byteLength(body)).toBe(LIMIT + 1);
    const res = await rawWrite([resource, method], body, JSON_TYPE);
    expectProblem(res, 413, 'payload_too_large');
    const next = await env.api.get(`/v1/${resource}?limit=1`);
    expect(next.status).toBe(200);
  });

  it('a body sent without Content-Length (chunked) over the limit is 413 too', async () => {
    const before = await counts(env);
    const chunk = new TextEncoder().encode('x'.repeat(1024 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"first_name":"Big","notes":"'));
        if (sent++ < 11) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${env.sandbox.baseUrl}/v1/leads`, {
      method: 'POST',
      headers: { ...JSON_TYPE, authorization: `Bearer ${env.sandbox.apiKey}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const text = await response.text();
    env.statuses.push(response.status);
    expectProblem({ status: response.status, headers: response.headers, body: JSON.parse(text), text }, 413, 'payload_too_large');
    expect(await counts(env)).toEqual(before);
  });

  it('a valid body just under the limit is parsed, then judged by its content (notes > 10 000 chars is 422)', async () => {
    const body = padded(LIMIT - 16);
    const res = await rawWrite(['leads', 'POST'], body, JSON_TYPE);
    expectFieldError(res, 'notes', 'too_big');
  });
});

describe('prototype-pollution keys are refused or harmless', () => {
  // secure-json-parse (Fastify's JSON parser) refuses __proto__ and constructor.prototype outright.
  const REFUSED: [string, Resource, string][] = [
    ['__proto__ at the top level', 'leads', '{"first_name":"P","__proto__":{"polluted":true}}'],
    ['__proto__ inside custom_fields', 'leads', '{"first_name":"P","custom_fields":{"__proto__":{"polluted":true}}}'],
    ['__proto__ as a string value key', 'clients', '{"name":"P","custom_fields":{"__proto__":"x"}}'],
    ['constructor.prototype', 'deals', '{"title":"P","value":1,"currency":"EUR","stage":"lead_in","constructor":{"prototype":{"polluted":true}}}'],
    [
      '__proto__ in an invoice line item',
      'invoices',
      '{"client_id":"cli_x","line_items":[{"description":"d","quantity":1,"unit_price":1,"__proto__":{"polluted":true}}]}',
    ],
  ];
  it.each(REFUSED)('%s (POST %s) is 400 malformed_json', async (_name, resource, body) => {
    const res = await rawWrite([resource, 'POST'], body, JSON_TYPE);
    expectProblem(res, 400, 'malformed_json');
  });

  it.each(RESOURCES)('a top-level "constructor" or "toString" field on POST %s is 422 unknown_field', async (resource) => {
    for (const key of ['constructor', 'toString', 'hasOwnProperty']) {
      const res = await rawWrite([resource, 'POST'], JSON.stringify({ ...validCreate(resource, env.ids), [key]: 'x' }), JSON_TYPE);
      expectFieldError(res, key, 'unknown_field');
    }
  });

  it('Object.prototype names as custom_fields keys are stored as plain data and pollute nothing', async () => {
    const custom = { constructor: 'c', toString: 'ts', hasOwnProperty: 1, isPrototypeOf: true };
    // Fields with these keys, as a team could define them (a key is lowercase: these are made lowercase).
    const lower = Object.fromEntries(Object.entries(custom).map(([k, v]) => [k.toLowerCase(), v]));
    for (const [key, value] of Object.entries(lower)) {
      const type = typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'text';
      const made = await env.api.post('/v1/fields', { object: 'lead', key, label: key, type });
      expect(made.status, made.text).toBe(201);
    }
    // Unknown names, with their case, are refused by name and change nothing.
    const unknown = await env.api.post('/v1/leads', { first_name: 'Proto', custom_fields: custom });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'custom_fields.hasOwnProperty',
      'custom_fields.isPrototypeOf',
      'custom_fields.toString',
    ]);
    const created = await env.api.post('/v1/leads', { first_name: 'Proto', custom_fields: lower });
    expect(created.status, created.text).toBe(201);
    expect(created.body.custom_fields).toEqual(lower);
    const read = await env.api.get(`/v1/leads/${created.body.id}`);
    expect(read.body.custom_fields).toEqual(lower);
    // A record made afterwards carries nothing it was not given.
    const plain = await env.api.post('/v1/leads', { first_name: 'Plain' });
    expect(plain.status).toBe(201);
    expect(plain.body.custom_fields).toEqual({});
    expect(plain.text).not.toMatch(/polluted/);
    for (const id of [created.body.id, plain.body.id]) expect((await env.api.delete(`/v1/leads/${id}`)).status).toBe(200);
  });
});
