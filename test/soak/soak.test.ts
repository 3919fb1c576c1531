import { describe, expect, it } from 'vitest';
import { soak, type SoakReport } from '../../scripts/soak/soak.js';

/**
 * The CI-sized chaos soak: 60 s of mixed load with SIGKILLs every 5–20 s (seed fixed, so the same
 * load and kill moments each run), an SSE reader, crm listen and a 5,000-row import (50,000 in
 * `npm run soak`) through the kills, then the checker. Takes about 90–120 s.
 */
describe('chaos soak (60 s, seed 17)', () => {
  let report: SoakReport;
  it('loses nothing and doubles nothing across repeated SIGKILLs', async () => {
    report = await soak({ seconds: 60, seed: 17, importRows: 5_000 });
    expect(report.failures).toEqual([]);
    expect(report.lost).toBe(0);
    expect(report.doubled).toBe(0);
  }, 240_000);

  it('really killed the sandbox, wrote, delivered, hung, streamed, listened and imported', () => {
    expect(report.kills).toBeGreaterThanOrEqual(2);
    expect(report.events).toBeGreaterThan(0);
    expect(report.receipts).toBeGreaterThanOrEqual(report.events * 3);
    expect(report.hangs).toBeGreaterThan(0);
    expect(report.sseEvents).toBe(report.events);
    expect(report.sseReconnects).toBeGreaterThanOrEqual(report.kills);
    expect(report.listenForwarded).toBeGreaterThanOrEqual(report.events);
    expect(report.importRuns).toBeGreaterThanOrEqual(1);
  });
});
