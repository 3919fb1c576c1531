import { describe, expect, it } from 'vitest';
import { PATH_MUTATIONS } from '../../scripts/fuzz/path-mutations.js';
import { fuzzPaths, type PathFinding, type PathFuzzResult } from '../../scripts/fuzz/path-run.js';
import { POWERS } from '../../scripts/fuzz/powers.js';
import { useApp, type RunningApp } from '../helpers/app.js';

let sandbox: RunningApp;
// PATH_FUZZ_LIMITS (the script's), in-process: a seeded sandbox whose limits never throttle the run.
useApp({ rateLimit: '1000000/1s', quota: '0', seed: 1 }, (s) => (sandbox = s));

const RUNS = 3;
const AREAS = 3; // /v1, /_sandbox, the rest

/** One line a finding, so a failure reads as a list of what went through. */
const line = (f: PathFinding) =>
  `${f.operation} [${f.mutation}, ${f.power} key, ${f.host} host] ${f.mutated.target} → ${f.mutated.status} (canonical → ${f.canonical.status}): ${f.problems.join('; ')}`;

/**
 * A bounded run with a fixed seed (`npm run fuzz -- --modes paths --seed 5 --path-runs 3` replays it):
 * every mutation kind with every key in every area, each other spelling checked against its canonical path.
 */
describe('path fuzzer (fixed seed, bounded)', () => {
  let result: PathFuzzResult;
  it('finds nothing: another spelling of a path gets what the canonical path gets (status, rate limits, request log, usage, idempotency, guard headers) or a 4xx', async () => {
    result = await fuzzPaths(sandbox, { seed: 5, runs: RUNS });
    expect(result.findings.map(line)).toEqual([]);
  }, 120_000);

  it('tried every mutation kind with every key (admin, another account, narrow, none) in every area', () => {
    for (const kind of PATH_MUTATIONS) expect(result.cases[kind], kind).toBe(POWERS.length * AREAS * RUNS);
    for (const power of POWERS) expect(result.byPower[power], power).toBe(PATH_MUTATIONS.length * AREAS * RUNS);
    // Some spellings reach the route and must behave exactly alike; the rest are refused.
    expect(result.outcomes.same).toBeGreaterThan(0);
    expect(result.outcomes.refused).toBeGreaterThan(0);
  });
});
