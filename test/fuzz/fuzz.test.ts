import { describe, expect, it } from 'vitest';
import { fuzz, type FuzzResult } from '../../scripts/fuzz/run.js';
import { useApp, type RunningApp } from '../helpers/app.js';

let sandbox: RunningApp;
useApp({ rateLimit: '0', quota: '0', seed: 1 }, (s) => (sandbox = s));

/** A bounded run with a fixed seed: the same cases every time, so a failure here is reproducible with `npm run fuzz -- --seed 17017`. */
describe('OpenAPI fuzzer (fixed seed, bounded)', () => {
  let result: FuzzResult;
  it('finds nothing: no 5xx, every answer documented, refused requests change nothing', async () => {
    result = await fuzz(sandbox, { seed: 17017, runs: 60 });
    expect(result.findings).toEqual([]);
  }, 120_000);

  it('reached every operation it does not skip, with every case counted', () => {
    expect(Object.keys(result.cases).length).toBeGreaterThan(40);
    for (const [operation, n] of Object.entries(result.cases)) expect(n, operation).toBe(60);
  });
});
