import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RESOURCES,
  expectNoServerErrors,
  expectParamError,
  expectProblem,
  startBadInputEnv,
  validCreate,
  type BadInputEnv,
  type Resource,
} from './bad-input-shared.js';

/** List queries that are wrong: limits, cursors, unknown parameters and bad filter values. */
let env: BadInputEnv;
/** A real next_cursor of `?limit=1` per resource. */
const cursors = {} as Record<Resource, string>;

beforeAll(async () => {
  env = await startBadInputEnv();
  for (const resource of RESOURCES) {
    expect((await env.api.post(`/v1/${resource}`, validCreate(resource, env.ids))).status).toBe(201);
    const page = await env.api.get(`/v1/${resource}?limit=1`);
    expect(page.status).toBe(200);
    expect(page.body.next_cursor).toEqual(expect.any(String));
    cursors[resource] = page.body.next_cursor;
  }
});
afterAll(async () => {
  if (env) expectNoServerErrors(env);
  await env?.sandbox.stop();
});

const q = encodeURIComponent;

describe('limit outside 1..1000 or not an integer is 400 invalid_request', () => {
  const LIMITS = ['0', '-1', '1001', '99999999999999999999', 'abc', '1.5', '', 'Infinity', '10abc', 'NaN', 'null', '0x10', '1e2', ' 5', '+5', '5 '];
  const cases = RESOURCES.flatMap((r) => LIMITS.map((l) => [r, l] as const));
  it.each(cases)('GET /v1/%s?limit=%s', async (resource, limit) => {
    expectParamError(await env.api.get(`/v1/${resource}?limit=${q(limit)}`), 'limit');
  });

  it.each(RESOURCES)('GET /v1/%s with limit given twice', async (resource) => {
    expectParamError(await env.api.get(`/v1/${resource}?limit=1&limit=2`), 'limit');
  });

  it.each(RESOURCES)('the bounds themselves (1 and 1000) are accepted on /v1/%s', async (resource) => {
    for (const limit of [1, 1000]) expect((await env.api.get(`/v1/${resource}?limit=${limit}`)).status).toBe(200);
  });
});

describe('an unknown query parameter is 400 invalid_request naming it', () => {
  const UNKNOWN: [Resource, string, string][] = [
    ['leads', 'foo=1', 'foo'],
    ['leads', 'Limit=5', 'Limit'],
    ['leads', 'search=ada', 'search'],
    ['leads', 'stage=won', 'stage'],
    ['clients', 'page=2', 'page'],
    ['clients', 'status=new', 'status'],
    ['deals', 'offset=10', 'offset'],
    ['deals', 'email=a%40b.test', 'email'],
    ['invoices', 'tag=x', 'tag'],
    ['invoices', 'limit%5B%5D=5', 'limit[]'],
    ['leads', '__proto__=x', '__proto__'],
    ['deals', 'constructor=x', 'constructor'],
  ];
  it.each(UNKNOWN)('GET /v1/%s?%s', async (resource, query, name) => {
    expectParamError(await env.api.get(`/v1/${resource}?${query}`), name, 'unknown_field');
  });
});

describe('a bad filter value is 400 invalid_request naming it', () => {
  const FILTERS: [Resource, string, string][] = [
    ['leads', 'status=hot', 'status'],
    ['leads', 'source=WEB', 'source'],
    ['deals', 'stage=closed', 'stage'],
    ['invoices', 'status=overdue', 'status'],
    ['clients', 'sort=value', 'sort'],
    ['deals', 'sort=-created', 'sort'],
    ['leads', 'sort=total', 'sort'],
    ['invoices', 'sort=name', 'sort'],
    ['deals', 'order=DESC', 'order'],
    ['invoices', 'order=newest', 'order'],
    ['leads', 'q=', 'q'],
    ['deals', `q=${'x'.repeat(201)}`, 'q'],
    ['leads', 'created_after=yesterday', 'created_after'],
    ['clients', 'updated_after=2026-13-01T00:00:00Z', 'updated_after'],
    ['invoices', 'created_after=1700000000', 'created_after'],
    ['clients', 'q=', 'q'],
    ['clients', `q=${'x'.repeat(201)}`, 'q'],
    ['leads', `external_id=${'x'.repeat(256)}`, 'external_id'],
    ['deals', `tag=${'x'.repeat(51)}`, 'tag'],
  ];
  it.each(FILTERS)('GET /v1/%s?%s', async (resource, query, name) => {
    expectParamError(await env.api.get(`/v1/${resource}?${query}`), name);
  });
});

describe('a bad cursor is 400 invalid_cursor', () => {
  /** Changes one character of a base64url string to another valid one. */
  const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
  const forged = `${Buffer.from(JSON.stringify({ a: ["' OR 1=1 --"], f: 'x' })).toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`;
  const BAD: [string, (r: Resource) => string][] = [
    ['garbage', () => 'garbage'],
    ['empty', () => ''],
    ['two dots', () => 'a.b.c'],
    ['a made-up pair', () => 'a.b'],
    ['a forged payload with a fake signature', () => forged],
    ['a tampered payload', (r) => flip(cursors[r], 2)],
    ['a tampered signature', (r) => flip(cursors[r], cursors[r].length - 3)],
    ['a truncated cursor', (r) => cursors[r].slice(0, -4)],
    ['the cursor with a character appended', (r) => `${cursors[r]}x`],
    ['a cursor of another resource', (r) => cursors[r === 'leads' ? 'deals' : 'leads']],
  ];
  const cases = RESOURCES.flatMap((r) => BAD.map(([name, make]) => [r, name, make] as const));
  it.each(cases)('GET /v1/%s with %s', async (resource, _name, make) => {
    expectProblem(await env.api.get(`/v1/${resource}?limit=1&cursor=${q(make(resource))}`), 400, 'invalid_cursor');
  });

  it.each(RESOURCES)('a cursor of /v1/%s reused with another sort or filter', async (resource) => {
    const cursor = q(cursors[resource]);
    expectProblem(await env.api.get(`/v1/${resource}?limit=1&sort=updated_at&cursor=${cursor}`), 400, 'invalid_cursor');
    expectProblem(await env.api.get(`/v1/${resource}?limit=1&created_after=2000-01-01T00:00:00Z&cursor=${cursor}`), 400, 'invalid_cursor');
  });

  it.each(RESOURCES)('a cursor longer than 2000 characters on /v1/%s is refused by the schema (invalid_request)', async (resource) => {
    expectParamError(await env.api.get(`/v1/${resource}?cursor=${'a'.repeat(2001)}`), 'cursor', 'too_big');
  });

  it.each(RESOURCES)('the untouched cursor of /v1/%s still works afterwards (control)', async (resource) => {
    const page = await env.api.get(`/v1/${resource}?limit=1&cursor=${q(cursors[resource])}`);
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(1);
  });
});
