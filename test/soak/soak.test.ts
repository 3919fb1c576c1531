import { describe, expect, it } from 'vitest';
import { soak, type SoakReport } from '../../scripts/soak/soak.js';

/**
 * The CI-sized chaos soak: 60 s of mixed load with SIGKILLs every 5–20 s (seed fixed, so the same
 * load and kill moments each run), then the checker. Takes about 70–90 s.
 */
describe('chaos soak (60 s, seed 17)', () => {
  let report: SoakReport;
  it('loses nothing and doubles nothing across repeated SIGKILLs', async () => {
    report = await soak({ seconds: 60, seed: 17 });
    expect(report.failures).toEqual([]);
    expect(report.lost).toBe(0);
    expect(report.doubled).toBe(0);
  }, 240_000);

  it('really killed the sandbox, wrote, and delivered', () => {
    expect(report.kills).toBeGreaterThanOrEqual(2);
    expect(report.events).toBeGreaterThan(0);
    expect(report.receipts).toBeGreaterThanOrEqual(report.events * 2);
  });
});
