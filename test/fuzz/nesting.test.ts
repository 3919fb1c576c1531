import { describe, expect, it } from 'vitest';
import { DEPTHS, fuzzNesting, SHAPES, type NestingResult } from '../../scripts/fuzz/nesting.js';
import { useApp, type RunningApp } from '../helpers/app.js';

let sandbox: RunningApp;
useApp({ rateLimit: '0', quota: '0', seed: 1 }, (s) => (sandbox = s));

const OPERATIONS = 3;

/**
 * Deeply nested bodies on a seeded sample of write operations (`npm run fuzz -- --modes nesting
 * --seed 5 --nesting-ops 3` replays it): each depth and shape, with and without an Idempotency-Key.
 */
describe('nesting fuzzer (fixed seed, bounded)', () => {
  let result: NestingResult;
  it('finds nothing: every nested body is a 4xx, /healthz answers after each, /v1 requests reach the request log', async () => {
    result = await fuzzNesting(sandbox, { seed: 5, operations: OPERATIONS });
    expect(
      result.findings.map((f) => `${f.operation} [${f.shape}, depth ${f.depth}${f.idempotencyKey ? ', Idempotency-Key' : ''}] ${f.problem.slice(0, 300)}`),
    ).toEqual([]);
  }, 120_000);

  it('sent every depth and shape, with and without a key, to each operation', () => {
    expect(result.operations).toHaveLength(OPERATIONS);
    expect(result.cases).toBe(OPERATIONS * DEPTHS.length * SHAPES.length * 2);
  });
});
