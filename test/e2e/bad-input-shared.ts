import { afterAll, beforeAll, expect } from 'vitest';
import { apiClient, startSandboxProcess, type ApiResponse, type RunningSandbox } from '../helpers/sandbox.js';

/**
 * Shared pieces of the bad-input suite (test/e2e/bad-input-*.test.ts): a sandbox process with a
 * few known records, an API client that remembers every status it saw (so a file can assert that
 * nothing ever answered 5xx), and the one assertion every failure must pass.
 */

export const JSON_TYPE = { 'content-type': 'application/json' };

export type Resource = 'leads' | 'clients' | 'deals' | 'invoices';
export const RESOURCES: Resource[] = ['leads', 'clients', 'deals', 'invoices'];

/** Ids that look right but exist nowhere. */
export const MISSING: Record<Resource, string> = {
  leads: 'lead_00000000000000000000000000',
  clients: 'cli_00000000000000000000000000',
  deals: 'deal_00000000000000000000000000',
  invoices: 'inv_00000000000000000000000000',
};

/** A valid create body per resource (invoices need the fixture client's id). */
export function validCreate(resource: Resource, ids: Fixtures): Record<string, unknown> {
  switch (resource) {
    case 'leads':
      return { first_name: 'Ada', email: 'ada@example.test' };
    case 'clients':
      return { name: 'Valid Client GmbH' };
    case 'deals':
      return { title: 'Valid deal', value: 10, currency: 'EUR', stage: 'lead_in' };
    case 'invoices':
      return { client_id: ids.client, send: false, line_items: [{ description: 'Work', quantity: 1, unit_price: 10 }] };
  }
}

export interface Fixtures {
  lead: string;
  client: string;
  deal: string;
  /** A draft invoice (only drafts can be changed, so a failed PATCH on it is meaningful). */
  invoice: string;
}

export interface BadInputEnv {
  sandbox: RunningSandbox;
  api: ReturnType<typeof apiClient>;
  ids: Fixtures;
  /** Every HTTP status this file saw, in order. */
  statuses: number[];
}

/** The fixture record of a resource. */
export const idOf = (env: BadInputEnv, resource: Resource): string => env.ids[resource.slice(0, -1) as keyof Fixtures];

export async function startBadInputEnv(): Promise<BadInputEnv> {
  const sandbox = await startSandboxProcess(['--no-seed']);
  const inner = apiClient(sandbox);
  const statuses: number[] = [];
  const request: typeof inner.request = async (method, path, options) => {
    const res = await inner.request(method, path, options);
    statuses.push(res.status);
    return res;
  };
  const api = {
    request,
    get: (path: string, o?: Parameters<typeof request>[2]) => request('GET', path, o),
    post: (path: string, body?: unknown, o?: Parameters<typeof request>[2]) => request('POST', path, { ...o, body }),
    patch: (path: string, body?: unknown, o?: Parameters<typeof request>[2]) => request('PATCH', path, { ...o, body }),
    delete: (path: string, o?: Parameters<typeof request>[2]) => request('DELETE', path, o),
  };
  const client = await api.post('/v1/clients', { name: 'Fixture Client Ltd', email: 'billing@fixture.test' });
  const lead = await api.post('/v1/leads', { first_name: 'Fixture', last_name: 'Lead', email: 'lead@fixture.test', tags: ['a'] });
  const deal = await api.post('/v1/deals', { title: 'Fixture deal', value: 19.99, currency: 'EUR', stage: 'qualified', client_id: client.body.id });
  const invoice = await api.post('/v1/invoices', {
    client_id: client.body.id,
    send: false,
    line_items: [{ description: 'Consulting', quantity: 2, unit_price: 19.99 }],
  });
  for (const res of [client, lead, deal, invoice]) expect(res.status, res.text).toBe(201);
  expect(invoice.body.status).toBe('draft');
  return { sandbox, api, statuses, ids: { lead: lead.body.id, client: client.body.id, deal: deal.body.id, invoice: invoice.body.id } };
}

/** Exactly the problem+json fields of docs/reference/errors.md; `errors` only on validation failures. */
const PROBLEM_KEYS = ['type', 'title', 'status', 'detail', 'code', 'request_id'];

/** Signs of internals: stack frames, SQLite errors, paths on the server's disk. */
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\bat (?:\S+ )?\(?(?:file:|node:|\/)[^)\s]*:\d+:\d+/],
  ['a stack frame', /\n\s+at /],
  ['SQLite', /SQLITE|sqlite_|SqliteError/i],
  ['node_modules', /node_modules/],
  ['the project path', /\/work\//],
  ['a file URL', /file:\/\//],
  ['a Fastify error code', /FST_ERR/],
];

function expectNoLeak(text: string): void {
  for (const [what, pattern] of LEAKS) expect(text, `the response leaks ${what}: ${text.slice(0, 300)}`).not.toMatch(pattern);
}

/** The one shape every failure has: status, code, media type, body fields, request id, no internals. */
export function expectProblem(res: ApiResponse, status: number, code: string): void {
  const context = `${res.status} ${res.text.slice(0, 400)}`;
  expect(res.status, context).toBe(status);
  expect(res.headers.get('content-type'), context).toMatch(/^application\/problem\+json(;|$)/);
  const body = res.body as Record<string, unknown>;
  expect(typeof body, context).toBe('object');
  // `errors` lists field problems: always on a 422 validation_failed, and on a 400 invalid_request
  // when the query or path failed its schema; never on anything else.
  const withErrors = code === 'validation_failed' || (code === 'invalid_request' && 'errors' in body);
  const expectedKeys = withErrors ? [...PROBLEM_KEYS, 'errors'] : PROBLEM_KEYS;
  expect(Object.keys(body).sort(), context).toEqual([...expectedKeys].sort());
  expect(body.type).toBe(`/errors/${code}`);
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(body.title).toEqual(expect.any(String));
  expect((body.title as string).length).toBeGreaterThan(0);
  expect(body.detail).toEqual(expect.any(String));
  expect((body.detail as string).length).toBeGreaterThan(0);
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_[0-9A-Za-z]+$/);
  expect(body.request_id).toBe(requestId);
  expectNoLeak(res.text);
}

/** A 422 validation_failed whose `errors` names `path` (and, if given, with that code). */
export function expectFieldError(res: ApiResponse, path: string, code?: string): void {
  expectProblem(res, 422, 'validation_failed');
  expectErrorAt(res, path, code);
}

/** A 400 invalid_request about the query or path whose `errors` names `path`. */
export function expectParamError(res: ApiResponse, path: string, code?: string): void {
  expectProblem(res, 400, 'invalid_request');
  expectErrorAt(res, path, code);
}

function expectErrorAt(res: ApiResponse, path: string, code?: string): void {
  const errors = res.body.errors as { path: string; code: string; message: string }[];
  expect(Array.isArray(errors) && errors.length > 0, res.text).toBe(true);
  for (const e of errors) expect(e).toEqual({ path: expect.any(String), code: expect.any(String), message: expect.any(String) });
  const hit = errors.find((e) => e.path === path && (code === undefined || e.code === code));
  expect(hit, `expected an error at '${path}'${code ? ` with code ${code}` : ''}, got ${JSON.stringify(errors)}`).toBeDefined();
}

/** How many records each resource has, by listing (the suite stays far below one page of 1000). */
export async function counts(env: BadInputEnv): Promise<Record<Resource, number>> {
  const out = {} as Record<Resource, number>;
  for (const resource of RESOURCES) {
    const res = await env.api.get(`/v1/${resource}?limit=1000`);
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    out[resource] = res.body.data.length;
  }
  return out;
}

/** A record as GET returns it, to prove a failed write left it exactly as it was. */
export async function snapshot(env: BadInputEnv, resource: Resource, id: string): Promise<unknown> {
  const res = await env.api.get(`/v1/${resource}/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** After a file: nothing answered 5xx and the sandbox logged no failed request. */
export function expectNoServerErrors(env: BadInputEnv): void {
  expect(env.statuses.length).toBeGreaterThan(0);
  expect(env.statuses.filter((s) => s >= 500)).toEqual([]);
  expect(env.sandbox.stderr()).not.toMatch(/request failed|"level":50/);
}

/** The file's sandbox and fixtures, around all its tests; after them, proof that nothing failed with a 5xx. */
export function useBadInputEnv(ready: (env: BadInputEnv) => void): void {
  let env: BadInputEnv | undefined;
  beforeAll(async () => {
    env = await startBadInputEnv();
    ready(env);
  });
  afterAll(async () => {
    if (env) expectNoServerErrors(env);
    await env?.sandbox.stop();
  });
}
