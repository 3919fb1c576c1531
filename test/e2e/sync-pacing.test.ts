import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCrm } from '../helpers/cli-process.js';
import { type ApiClient, type RunningSandbox, tempDir, useSandbox } from '../helpers/sandbox.js';
import { dbValue, writeLeadsCsv } from '../helpers/sync.js';

/**
 * The client paces itself by the RateLimit fields (docs/sync.md#pacing-by-the-servers-limits): an import under a tight limit
 * is answered (almost) no 429. Behaviour, not timing: the count of 429s the server itself
 * recorded (GET /v1/usage), and every row created.
 */
let sandbox: RunningSandbox;
let api: ApiClient;
useSandbox(['--no-seed', '--rate-limit', '20/1s'], (s, a) => {
  sandbox = s;
  api = a;
});
const dir = tempDir('crm-pacing-');
afterAll(() => dir.remove());

describe('pacing by RateLimit headers', () => {
  // Batches of 100 make 200 requests: unpaced, 8 in flight run well past 20/s, so this can fail.
  it('imports 20,000 leads against 20 requests/s with at most a handful of 429s', async () => {
    const file = join(dir.path, 'leads.csv');
    await writeLeadsCsv(file, 20_000, { externalIds: true });
    const res = await runCrm(['sync', 'import', 'leads', file, '--batch-size', '100', '--concurrency', '8', '--json'], {
      CRM_BASE_URL: sandbox.baseUrl,
      CRM_API_KEY: sandbox.apiKey,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).summary).toEqual({ created: 20_000, updated: 0, unchanged: 0, failed: 0 });
    expect(dbValue(sandbox.db, 'SELECT count(*) FROM leads')).toBe(20_000);

    // The usage call is limited too: wait for a window with room.
    let usage = await api.get('/v1/usage');
    while (usage.status === 429) {
      await sleep(1100);
      usage = await api.get('/v1/usage');
    }
    const limited = usage.body.by_status.find((s: { status: number }) => s.status === 429)?.requests ?? 0;
    expect(limited).toBeLessThanOrEqual(5);
  });
});
