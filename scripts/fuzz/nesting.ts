import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { valid } from './arbitraries.js';
import { idPools } from './id-pools.js';
import { operationsOf, type Document, type Operation } from './openapi.js';
import { NoAnswer, rawRequest, type RawResponse } from './raw-http.js';

/**
 * Deeply nested JSON bodies on the write operations (docs/reliability.md#paths---path-runs-n-20-by-default): `[[[…]]]`, `{"a":{"a":…}}` and a
 * valid body with one field nested, 1,000 to 100,000 deep, with and without an Idempotency-Key.
 * Each must be refused with a 4xx (never a 5xx, never left unanswered), the sandbox must still
 * answer /healthz afterwards, and a /v1 request must still reach the request log with its body (cut, not dropped).
 */
export const DEPTHS = [1_000, 10_000, 100_000] as const;
export const SHAPES = ['array', 'object', 'in_field'] as const;
export type Shape = (typeof SHAPES)[number];

export interface NestingFinding {
  operation: string;
  depth: number;
  shape: Shape;
  idempotencyKey: boolean;
  problem: string;
}
export interface NestingResult {
  operations: string[];
  cases: number;
  findings: NestingFinding[];
}
export interface NestingTarget {
  baseUrl: string;
  apiKey: string;
}

/** Far above anything the sandbox needs to answer a refused body; reaching it means it hangs. */
const NO_ANSWER_MS = 60_000;
const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export function nestedJson(shape: Exclude<Shape, 'in_field'>, depth: number): string {
  return shape === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A valid body whose first field (a required one if any) holds nested arrays instead of its value. */
function inField(op: Operation, seed: number, depth: number): string {
  const schema = op.body!.schema;
  const base = fc.sample(valid(schema), { seed, numRuns: 1 })[0];
  const field = (schema.required ?? [])[0] ?? Object.keys(schema.properties ?? {})[0];
  if (!field || typeof base !== 'object' || base === null || Array.isArray(base)) return nestedJson('array', depth);
  const marker = `nest-${randomUUID()}`;
  return JSON.stringify({ ...base, [field]: marker }).replace(`"${marker}"`, nestedJson('array', depth));
}

export async function fuzzNesting(
  target: NestingTarget,
  options: { seed: number; operations?: number; only?: RegExp; log?: (line: string) => void },
): Promise<NestingResult> {
  const doc = (await (await fetch(`${target.baseUrl}/v1/openapi.json`)).json()) as Document;
  const writes = operationsOf(doc).filter((op) => WRITES.has(op.method) && op.body && (!options.only || options.only.test(`${op.method} ${op.path}`)));
  const count = Math.min(options.operations ?? writes.length, writes.length);
  const chosen = fc.sample(fc.shuffledSubarray(writes, { minLength: count, maxLength: count }), { seed: options.seed, numRuns: 1 })[0]!;
  const idsAt = idPools(target.baseUrl, target.apiKey);
  const result: NestingResult = { operations: chosen.map((op) => `${op.method} ${op.path}`), cases: 0, findings: [] };

  for (const op of chosen) {
    let path = op.path;
    for (const [param] of op.path.matchAll(/\{[^}]+\}/g)) {
      const ids = await idsAt(path.slice(0, path.indexOf(param) - 1));
      path = path.replace(param, encodeURIComponent(ids[0] ?? 'does_not_exist'));
    }
    for (const depth of DEPTHS) {
      for (const shape of SHAPES) {
        for (const keyed of [false, true]) {
          result.cases++;
          const body = shape === 'in_field' ? inField(op, options.seed, depth) : nestedJson(shape, depth);
          const problem = await nestedCase(target, op, path, body, keyed);
          if (!problem) continue;
          const finding = { operation: `${op.method} ${op.path}`, depth, shape, idempotencyKey: keyed, problem };
          result.findings.push(finding);
          options.log?.(`FINDING ${finding.operation} [${shape}, depth ${depth}${keyed ? ', Idempotency-Key' : ''}] ${problem}`);
        }
      }
    }
  }
  return result;
}

async function nestedCase(target: NestingTarget, op: Operation, path: string, body: string, keyed: boolean): Promise<string | undefined> {
  const headers: Record<string, string> = { authorization: `Bearer ${target.apiKey}`, 'content-type': op.body!.mediaType };
  if (keyed) headers['idempotency-key'] = `nest-${randomUUID()}`;
  let res: RawResponse;
  try {
    res = await rawRequest(target.baseUrl, { method: op.method, target: path, headers, body, timeoutMs: NO_ANSWER_MS });
  } catch (error) {
    return error instanceof NoAnswer ? error.message : `the request failed: ${(error as Error).message}`;
  }
  const problems: string[] = [];
  if (res.status < 400 || res.status >= 500) problems.push(`answered ${res.status}: ${res.text.slice(0, 200)}`);
  try {
    const health = await rawRequest(target.baseUrl, { method: 'GET', target: '/healthz', timeoutMs: NO_ANSWER_MS });
    if (health.status !== 200) problems.push(`/healthz answered ${health.status} afterwards`);
  } catch (error) {
    problems.push(`/healthz did not answer afterwards: ${(error as Error).message}`);
  }
  const requestId = res.headers['x-request-id'];
  if (path.startsWith('/v1/') && typeof requestId === 'string') {
    const logged = await fetch(`${target.baseUrl}/v1/request_logs/${requestId}`, { headers: { authorization: `Bearer ${target.apiKey}` } });
    const entry = logged.status === 200 ? ((await logged.json()) as { request_body?: string | null }) : (await logged.body?.cancel(), undefined);
    if (!entry) problems.push(`not in the request log (GET /v1/request_logs/${requestId} answered ${logged.status})`);
    else if (!entry.request_body) problems.push('in the request log without its body (a nested body is cut there, not dropped)');
  }
  return problems.length ? problems.join('; ') : undefined;
}
