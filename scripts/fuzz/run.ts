import fc from 'fast-check';
import { request } from 'undici';
import { checkResponse } from '../../test/helpers/openapi-check.js';
import { oddString, valid, wrongType } from './arbitraries.js';
import { idPools, type IdsAt } from './id-pools.js';
import { operationsOf, type Document, type Operation } from './openapi.js';
import { tableCounts } from './state.js';

/**
 * The fuzzer: for every operation of the published OpenAPI document, fast-check makes valid requests
 * and mutations of them, sends them to a running sandbox, and checks: no 5xx, the response matches
 * the document, a refused request changed nothing, a schema-valid request is not refused as invalid.
 */
export interface Target {
  baseUrl: string;
  apiKey: string;
  db: string;
}
export interface Finding {
  operation: string;
  mutation: string;
  problem: string;
  request: unknown;
}
export interface FuzzResult {
  cases: Record<string, number>;
  findings: Finding[];
  refusedValid: Record<string, number>;
}

/**
 * Operations left out, and why: they stream, inject failures on purpose, wipe the database, or revoke
 * the fuzzer's own key; and the OAuth protocol endpoints, which take forms (the fuzzer sends JSON)
 * and answer 400 to well-formed requests whose client, code or sealed consent the server did not
 * issue (RFC 6749): not a schema question. test/e2e/oauth*.test.ts and the conformance test cover them.
 */
const SKIP = [/^POST \/_sandbox\/(reset|faults)$/, /\/stream$/, /^(GET|POST) \/oauth\//];
const ONLY_BAD_IDS = [/^DELETE \/v1\/api_keys\/\{id\}$/];

const MUTATIONS = [
  'valid',
  'valid',
  'wrong_type',
  'missing_field',
  'extra_field',
  'odd_string',
  'bad_id',
  'bad_cursor',
  'bad_query',
  'content_type',
  'duplicate_header',
  'not_json',
] as const;
type Mutation = (typeof MUTATIONS)[number];

interface Built {
  method: string;
  path: string;
  headers: string[];
  body?: string;
  idParam?: string;
}

export async function fuzz(target: Target, options: { seed: number; runs: number; only?: RegExp; log?: (line: string) => void }): Promise<FuzzResult> {
  const doc = (await (await fetch(`${target.baseUrl}/v1/openapi.json`)).json()) as Document;
  const operations = operationsOf(doc).filter((op) => !SKIP.some((r) => r.test(`${op.method} ${op.path}`)) && !op.responseTypes.includes('text/event-stream'));
  const result: FuzzResult = { cases: {}, findings: [], refusedValid: {} };
  const idsAt = idPools(target.baseUrl, target.apiKey);

  for (const op of operations) {
    const name = `${op.method} ${op.path}`;
    if (options.only && !options.only.test(name)) continue;
    result.cases[name] = 0;
    // fast-check shrinks a failure by running smaller cases; only the last failing one (the smallest) is kept.
    let smallest: Finding | undefined;
    const query = op.parameters.filter((p) => p.in === 'query');
    const caseArb = fc.record({
      mutation: ONLY_BAD_IDS.some((r) => r.test(name)) ? fc.constant<Mutation>('bad_id') : fc.constantFrom(...MUTATIONS),
      body: op.body ? valid(op.body.schema) : fc.constant(undefined),
      query: fc.record(Object.fromEntries(query.map((p) => [p.name, valid(p.schema)])), { requiredKeys: query.filter((p) => p.required).map((p) => p.name) }),
      pick: fc.nat(),
      odd: oddString,
      wrong: fc.oneof(wrongType({ type: 'string' }), wrongType({ type: 'number' }), wrongType({ type: 'object' })),
      idempotencyKey: fc.option(fc.stringMatching(/^[A-Za-z0-9-]{8,40}$/), { nil: undefined }),
    });
    await fc
      .assert(
        fc.asyncProperty(caseArb, async (c) => {
          result.cases[name]!++;
          const built = await build(op, c, idsAt, target.apiKey);
          const problem = await send(target, op, c.mutation, built, result);
          if (problem) smallest = { operation: name, mutation: c.mutation, problem, request: built };
          return problem === undefined;
        }),
        { seed: options.seed, numRuns: options.runs },
      )
      .catch((error: Error) => {
        // A property failure is a finding; anything else (a generator that cannot make values) is one too.
        const finding = smallest ?? { operation: name, mutation: '-', problem: `fuzzer error: ${error.message.slice(0, 500)}`, request: null };
        result.findings.push(finding);
        options.log?.(`FINDING ${name} [${finding.mutation}] ${finding.problem}`);
      });
  }
  return result;
}

async function build(op: Operation, c: any, idsAt: IdsAt, apiKey: string): Promise<Built> {
  let path = op.path;
  let idParam: string | undefined;
  for (const p of op.parameters.filter((p) => p.in === 'path')) {
    const collection = path.slice(0, path.indexOf(`{${p.name}}`) - 1);
    const ids = await idsAt(collection);
    const id = c.mutation === 'bad_id' ? c.odd || 'x' : (ids[c.pick % Math.max(ids.length, 1)] ?? 'does_not_exist');
    path = path.replace(`{${p.name}}`, encodeURIComponent(id.toWellFormed()));
    idParam = `${collection}/${encodeURIComponent(id.toWellFormed())}`;
  }
  const query: Record<string, unknown> = { ...c.query };
  if (c.mutation === 'bad_cursor') query.cursor = c.odd || 'not-a-cursor';
  if (c.mutation === 'bad_query') {
    const names = Object.keys(query).concat(
      op.parameters.filter((p) => p.in === 'query').map((p) => p.name),
      'limit',
    );
    query[names[c.pick % names.length]!] = typeof c.wrong === 'string' ? c.wrong : JSON.stringify(c.wrong);
  }
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
  const headers = ['authorization', `Bearer ${apiKey}`];
  if (c.idempotencyKey && op.method !== 'GET') headers.push('idempotency-key', c.idempotencyKey);
  let body: string | undefined;
  if (op.body) {
    const value = structuredClone(c.body);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(op.body.schema.properties ?? {});
      const key = keys[c.pick % Math.max(keys.length, 1)];
      if (c.mutation === 'wrong_type' && key) value[key] = c.wrong;
      if (c.mutation === 'odd_string' && key) value[key] = c.odd;
      if (c.mutation === 'missing_field') delete value[(op.body.schema.required ?? keys)[c.pick % Math.max((op.body.schema.required ?? keys).length, 1)]];
      if (c.mutation === 'extra_field') value[`unexpected_${c.pick % 7}`] = c.odd;
    }
    body = c.mutation === 'not_json' ? `{"broken": ${c.odd}` : JSON.stringify(value ?? {});
    headers.push(
      'content-type',
      c.mutation === 'content_type' ? ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', ''][c.pick % 4]! : op.body.mediaType,
    );
  } else if (c.mutation === 'content_type' || c.mutation === 'not_json') {
    body = c.mutation === 'not_json' ? '{"broken"' : 'a=1';
    headers.push('content-type', c.mutation === 'not_json' ? 'application/json' : 'text/plain');
  }
  if (c.mutation === 'duplicate_header') {
    headers.push('content-type', 'text/plain');
    if (c.idempotencyKey) headers.push('idempotency-key', `${c.idempotencyKey}-2`);
    headers.push('authorization', `Bearer ${apiKey}`);
  }
  return {
    method: op.method,
    path: qs ? `${path}?${qs}` : path,
    headers,
    ...(body !== undefined && op.method !== 'GET' ? { body } : {}),
    ...(idParam ? { idParam } : {}),
  };
}

/**
 * Records that any request may remove: the request log keeps the newest 10,000 (docs/dashboard.md#the-request-log), so the
 * oldest entry goes with each new request, refused or not (found at 10,000 cases per operation: the
 * pooled ids are the oldest entries, and one left between the two reads of a case).
 */
const LEAVE_BY_RETENTION = /^\/v1\/request_logs\//;

/** Sends one case and returns what is wrong with the answer, if anything. */
async function send(target: Target, op: Operation, mutation: Mutation, req: Built, result: FuzzResult): Promise<string | undefined> {
  const before = tableCounts(target.db);
  const recordBefore = req.idParam ? await readRecord(target, req.idParam) : undefined;
  const res = await request(`${target.baseUrl}${req.path}`, { method: req.method as 'GET', headers: req.headers, body: req.body });
  const text = await res.body.text();
  const type = String(res.headers['content-type'] ?? '');
  if (res.statusCode >= 500) return `answered ${res.statusCode}: ${text.slice(0, 300)}`;
  let parsed: any = text;
  try {
    if (/json/.test(type) && text) parsed = JSON.parse(text);
  } catch {
    return `answered invalid JSON with ${type}`;
  }
  try {
    await checkResponse(target.baseUrl, req.method, req.path, res.statusCode, type, parsed);
  } catch (error) {
    return (error as Error).message;
  }
  if (res.statusCode >= 400) {
    const after = tableCounts(target.db);
    for (const t of Object.keys(after))
      if (after[t] !== before[t]) return `refused with ${res.statusCode} ${parsed?.code ?? ''}, yet ${t} went from ${before[t]} to ${after[t]}`;
    if (req.idParam && !LEAVE_BY_RETENTION.test(req.idParam) && JSON.stringify(await readRecord(target, req.idParam)) !== JSON.stringify(recordBefore)) {
      return `refused with ${res.statusCode}, yet the record changed`;
    }
    if (mutation === 'valid') {
      const code = `${res.statusCode} ${parsed?.code ?? ''}`;
      result.refusedValid[code] = (result.refusedValid[code] ?? 0) + 1;
      // A body the document calls valid must not be refused as malformed or unsupported.
      if ([400, 415].includes(res.statusCode) && req.body !== undefined && parsed?.code !== 'invalid_cursor')
        return `a schema-valid request was refused: ${code} ${parsed?.detail ?? ''}`;
    }
  }
  return undefined;
}

async function readRecord(target: Target, path: string): Promise<unknown> {
  const res = await fetch(`${target.baseUrl}${path}`, { headers: { authorization: `Bearer ${target.apiKey}` } });
  return res.status === 200 ? await res.json() : res.status;
}
