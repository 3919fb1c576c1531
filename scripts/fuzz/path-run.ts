import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { valid } from './arbitraries.js';
import { operationsOf, type Document, type Operation } from './openapi.js';
import { drawFrom, mutatePath, PATH_MUTATIONS, withQuery, type PathMutation } from './path-mutations.js';
import { POWERS, preparePowers, type Power, type Powers } from './powers.js';
import { rawRequest, type RawResponse } from './raw-http.js';
import { differences, observe, snapshot, type Observed, type Snapshot } from './side-effects.js';

/**
 * The path fuzzer (docs/reliability.md#paths---path-runs-n-20-by-default): each case sends one request twice, on its canonical path and on
 * another spelling of it (path-mutations.ts), with one of four credentials (powers.ts), sometimes
 * under a foreign Host, and checks the rule of side-effects.ts: the other spelling gets exactly what
 * the canonical path gets, or a 4xx that changed nothing; never a 5xx.
 */
export interface PathTarget {
  baseUrl: string;
  apiKey: string;
  db: string;
}

export interface PathFinding {
  operation: string;
  mutation: PathMutation;
  power: Power;
  host: 'own' | 'foreign';
  canonical: { target: string; status: number };
  mutated: { target: string; status: number };
  problems: string[];
}

export interface PathFuzzResult {
  cases: Record<PathMutation, number>;
  byPower: Record<Power, number>;
  /** How the other spellings were answered: as the canonical path, refused with a 4xx, or a finding. */
  outcomes: { same: number; refused: number; finding: number };
  findings: PathFinding[];
}

/** Rate-limit headers are among what is compared, so limits stay on: far above what one client sends. */
export const PATH_FUZZ_LIMITS = ['--rate-limit', '1000000/1s', '--quota', '0'];

/** Pages outside the OpenAPI document whose guards (Host check, CSP) hang on their path. */
const PAGES: Operation[] = ['/dashboard/', '/dashboard/leads', '/dashboard/assets/app.js', '/docs'].map((path) => ({
  method: 'GET',
  path,
  parameters: [],
  responseTypes: ['text/html'],
}));

/** Streams never end; fuzzing them would hang the case. */
const SKIP = [/\/stream$/];
/** Wipes the default account's data: sent only with keys that must be refused. */
const REFUSED_POWERS_ONLY = [/^POST \/_sandbox\/reset$/];
/** Arms failures for every later request: disarmed right after each send. */
const FAULTS = 'POST /_sandbox/faults';
const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const FOREIGN_HOST = 'rebind.evil.test';

const AREAS = ['v1', 'sandbox', 'other'] as const;
function areaOf(path: string): (typeof AREAS)[number] {
  return path.startsWith('/v1/') ? 'v1' : path.startsWith('/_sandbox/') ? 'sandbox' : 'other';
}

interface Case {
  op: Operation;
  power: Power;
  foreignHost: boolean;
  picks: number[];
  idPick: number;
  withKey: boolean;
  body: unknown;
  query: Record<string, unknown>;
}

/** The last snapshot taken, while it still describes the sandbox (no request of the fuzzer's own since). */
interface Carried {
  snapshot?: Snapshot | undefined;
  poolReads: number;
}

function caseArb(targets: Operation[], power: Power): fc.Arbitrary<Case> {
  return fc.constantFrom(...targets).chain((op) => {
    const query = op.parameters.filter((p) => p.in === 'query');
    return fc.record({
      op: fc.constant(op),
      power: fc.constant(power),
      foreignHost: fc.nat(4).map((n) => n === 0),
      picks: fc.array(fc.nat(), { minLength: 16, maxLength: 16 }),
      idPick: fc.nat(),
      withKey: fc.boolean(),
      body: op.body ? valid(op.body.schema) : fc.constant(undefined),
      query: fc.record(Object.fromEntries(query.map((p) => [p.name, valid(p.schema)])), { requiredKeys: query.filter((p) => p.required).map((p) => p.name) }),
    });
  });
}

export async function fuzzPaths(
  target: PathTarget,
  options: { seed: number; runs: number; only?: RegExp; log?: (line: string) => void },
): Promise<PathFuzzResult> {
  const doc = (await (await fetch(`${target.baseUrl}/v1/openapi.json`)).json()) as Document;
  const targets = [...operationsOf(doc), ...PAGES].filter((op) => {
    const name = `${op.method} ${op.path}`;
    return !SKIP.some((r) => r.test(name)) && !op.responseTypes.includes('text/event-stream') && (!options.only || options.only.test(name));
  });
  if (targets.length === 0) throw new Error('path fuzz: no operation matches --only');
  const powers = await preparePowers(target);
  const result: PathFuzzResult = {
    cases: Object.fromEntries(PATH_MUTATIONS.map((k) => [k, 0])) as PathFuzzResult['cases'],
    byPower: Object.fromEntries(POWERS.map((p) => [p, 0])) as PathFuzzResult['byPower'],
    outcomes: { same: 0, refused: 0, finding: 0 },
    findings: [],
  };
  const carried: Carried = { poolReads: 0 };
  // Cases are spread evenly over mutation kinds, keys and areas (the first segment decides which
  // guards apply), so a short run still tries each kind with each key on /v1, /_sandbox and the rest.
  for (const [k, kind] of PATH_MUTATIONS.entries()) {
    for (const [p, power] of POWERS.entries()) {
      for (const [a, area] of AREAS.entries()) {
        const inArea = targets.filter((op) => areaOf(op.path) === area);
        if (inArea.length === 0) continue;
        const seed = options.seed + 1000 * k + 100 * p + a;
        for (const c of fc.sample(caseArb(inArea, power), { seed, numRuns: options.runs })) {
          const outcome = await runCase(target, powers, carried, kind, c);
          result.cases[kind]++;
          result.byPower[power]++;
          if (outcome === 'same' || outcome === 'refused') result.outcomes[outcome]++;
          else {
            result.outcomes.finding++;
            result.findings.push(outcome);
            options.log?.(
              `FINDING ${outcome.operation} [${kind}, ${outcome.power} key, ${outcome.host} host] ${outcome.mutated.target} → ${outcome.mutated.status} (canonical ${outcome.canonical.target} → ${outcome.canonical.status}): ${outcome.problems.join('; ')}`,
            );
          }
        }
      }
    }
  }
  return result;
}

async function runCase(target: PathTarget, powers: Powers, carried: Carried, kind: PathMutation, c: Case): Promise<PathFinding | 'same' | 'refused'> {
  const op = c.op;
  const name = `${op.method} ${op.path}`;
  const power = REFUSED_POWERS_ONLY.some((r) => r.test(name)) && c.power === 'admin' ? 'other' : c.power;
  const path = await fillPath(powers, power, op.path, c.idPick);
  const mutatedPath = mutatePath(path, kind, drawFrom(c.picks));
  const qs = new URLSearchParams(Object.entries(c.query).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
  const headers: Record<string, string> = {};
  const key = powers.key[power];
  if (key) headers.authorization = `Bearer ${key}`;
  if (c.foreignHost) headers.host = `${FOREIGN_HOST}:${new URL(target.baseUrl).port}`;
  let body: string | undefined;
  if (op.body) {
    body = JSON.stringify(c.body ?? {});
    headers['content-type'] = op.body.mediaType;
  }
  // Writes under /v1 take an Idempotency-Key: each spelling its own, so neither replays the other.
  const keyed = c.withKey && WRITES.has(op.method) && op.path.startsWith('/v1/');

  const send = async (requestTarget: string, idempotencyKey: string | undefined): Promise<RawResponse> => {
    const res = await rawRequest(target.baseUrl, {
      method: op.method,
      target: requestTarget,
      headers: { ...headers, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      ...(body !== undefined ? { body } : {}),
    });
    if (name === FAULTS)
      await rawRequest(target.baseUrl, { method: 'DELETE', target: '/_sandbox/faults', headers: { authorization: `Bearer ${target.apiKey}` } });
    return res;
  };
  // The snapshot after one request is the one before the next, unless something else was sent in
  // between (a retry with the Idempotency-Key, an id pool read): then a new one is taken.
  const sendAndObserve = async (requestTarget: string, tables: boolean): Promise<Observed> => {
    const idempotencyKey = keyed ? `fuzz-${randomUUID()}` : undefined;
    const fresh = carried.snapshot && carried.poolReads === powers.poolReads.count && (!tables || carried.snapshot.tables);
    const before = fresh ? carried.snapshot! : await snapshot(target.baseUrl, powers, tables);
    const res = await send(requestTarget, idempotencyKey);
    const { observed, after } = await observe(target.baseUrl, powers, res, before, tables);
    carried.snapshot = after;
    carried.poolReads = powers.poolReads.count;
    if (idempotencyKey) {
      observed.replayed = (await send(requestTarget, idempotencyKey)).headers['idempotent-replayed'] === 'true';
      carried.snapshot = undefined;
    }
    return observed;
  };

  const canonicalTarget = withQuery(path, qs);
  const mutatedTarget = withQuery(mutatedPath, qs);
  // The canonical request first: anything it changes (a record deleted, a deal won) makes the other
  // spelling's answer a 4xx at worst. Tables are counted around the other spelling of a write (a
  // refused one must change none); a read changes none by design.
  const write = WRITES.has(op.method);
  const canonical = await sendAndObserve(canonicalTarget, write);
  const mutated = await sendAndObserve(mutatedTarget, write);
  const problems = canonical.status >= 500 ? [`the canonical path answered ${canonical.status}`] : differences(canonical, mutated);
  if (problems.length === 0) return mutated.status >= 400 && mutated.status < 500 && mutated.status !== canonical.status ? 'refused' : 'same';
  return {
    operation: name,
    mutation: kind,
    power,
    host: c.foreignHost ? 'foreign' : 'own',
    canonical: { target: canonicalTarget, status: canonical.status },
    mutated: { target: mutatedTarget, status: mutated.status },
    problems,
  };
}

/** The operation's path with ids of the power's account (or the fuzzer's own records, powers.ts). */
async function fillPath(powers: Powers, power: Power, template: string, pick: number): Promise<string> {
  const account = powers.accounts[powers.accountOf[power]];
  let path = template;
  for (const [param] of template.matchAll(/\{[^}]+\}/g)) {
    const templateCollection = template.slice(0, template.indexOf(param) - 1);
    const resolvedCollection = path.slice(0, path.indexOf(param) - 1);
    const ids = account.fixedIds[templateCollection] ?? (await account.idsAt(resolvedCollection));
    path = path.replace(param, encodeURIComponent(ids[pick % Math.max(ids.length, 1)] ?? 'does_not_exist'));
  }
  return path;
}
