import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/index.js';
import { apiClient } from '../helpers/sandbox.js';

/**
 * Accounts for parallel tests (docs/accounts.md#making-accounts): eight test workers at once, each with its own account made through the
 * package API, restoring a snapshot before each of its tests and moving its clock, never seeing
 * another's data. The workers run concurrently against one real server on a real port.
 */
let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

const WORKERS = 8;
const TESTS_PER_WORKER = 4;

async function worker(n: number) {
  const account = await sandbox.createAccount({ name: `worker ${n}` });
  const api = apiClient({ baseUrl: sandbox.baseUrl, apiKey: account.apiKey });
  const seeded = (await api.get('/v1/leads?limit=1000')).body.data.length;
  await account.snapshot('clean');
  const seen: string[] = [];
  for (let t = 0; t < TESTS_PER_WORKER; t++) {
    await account.restore('clean');
    // Each test starts from the seeded data alone: nothing of its own earlier tests, nothing of others'.
    const before = (await api.get('/v1/leads?limit=1000')).body.data as { last_name: string | null }[];
    expect(before.length, `worker ${n} test ${t}`).toBe(seeded);
    expect(before.filter((l) => l.last_name?.startsWith('worker-'))).toEqual([]);
    const made = await api.post('/v1/leads', { first_name: 'Parallel', last_name: `worker-${n}-test-${t}` });
    expect(made.status).toBe(201);
    await account.advanceClock('1d');
    const after = (await api.get('/v1/leads?limit=1000')).body.data as { last_name: string | null }[];
    seen.push(...after.map((l) => l.last_name ?? '').filter((name) => name.startsWith('worker-')));
    const events = (await api.get('/v1/events?type=lead.created&limit=1000')).body.data as { data: { object: { last_name: string } } }[];
    expect(events.filter((e) => e.data.object.last_name?.startsWith('worker-')).map((e) => e.data.object.last_name)).toEqual([`worker-${n}-test-${t}`]);
  }
  // The clock moved a day per test and was put back by each restore: one day ahead now.
  const clock = (await apiClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey! }).get(`/_sandbox/accounts/${account.id}/clock`)).body;
  expect(clock.offset_seconds).toBeGreaterThanOrEqual(86_400 - 5);
  expect(clock.offset_seconds).toBeLessThan(2 * 86_400);
  return { n, seen };
}

describe('eight parallel workers', () => {
  it('each in its own account: restores, writes and clock moves never cross', async () => {
    const results = await Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
    for (const { n, seen } of results) {
      expect(seen).toEqual(Array.from({ length: TESTS_PER_WORKER }, (_, t) => `worker-${n}-test-${t}`));
    }
    // The default account saw none of it.
    const admin = apiClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey! });
    const leads = (await admin.get('/v1/leads?limit=1000')).body.data as { last_name: string | null }[];
    expect(leads.filter((l) => l.last_name?.startsWith('worker-'))).toEqual([]);
    expect((await admin.get('/_sandbox/accounts')).body.data).toHaveLength(WORKERS + 1);
  }, 60_000);
});
