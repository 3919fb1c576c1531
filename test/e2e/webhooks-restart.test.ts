import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, startReceiver, type Receiver } from '../helpers/receiver.js';
import { apiClient, startSandboxProcess, tempDir, type RunningSandbox } from '../helpers/sandbox.js';

/**
 * Pending deliveries live in SQLite: a sandbox killed with SIGKILL (no chance to clean up)
 * and started again on the same database sends them, and never sends again what a receiver
 * already answered with a 2xx.
 */
const dir = tempDir();
const db = `${dir.path}/sandbox.db`;
const KEY = 'crm_test_RestartRestartRestartRestart1234';
const args = ['--no-seed', '--webhook-time-scale', '0.001', '--api-key', KEY];
let sandbox: RunningSandbox | undefined;
let receiver: Receiver | undefined;

afterAll(async () => {
  await sandbox?.stop('SIGKILL');
  await receiver?.close();
  dir.remove();
});

const pendingRows = () => {
  const conn = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return conn.prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'").pluck().get() as number;
  } finally {
    conn.close();
  }
};

describe('a killed sandbox', () => {
  it('delivers its pending deliveries after a restart, none twice to a receiver that answered 2xx', async () => {
    let up = true;
    receiver = await startReceiver(() => (up ? 200 : 503));
    const r = receiver;
    sandbox = await startSandboxProcess(args, { db });
    let api = apiClient(sandbox);
    const endpoint = (await api.post('/v1/webhook_endpoints', { url: r.url })).body;

    const makeLeads = async (prefix: string) => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await api.post('/v1/leads', { first_name: `${prefix} ${i}` })).body.id);
      const events = (await api.get('/v1/events?type=lead.created&limit=1000')).body.data as { id: string; data: { object: { id: string } } }[];
      return events.filter((e) => ids.includes(e.data.object.id)).map((e) => e.id);
    };

    // Batch 1 is delivered (2xx) before the crash.
    const before = await makeLeads('Before');
    expect(before).toHaveLength(5);
    await r.waitFor('batch 1', () => before.every((id) => r.successes(id) === 1));

    // Batch 2 is refused (503) and retrying when the sandbox is killed.
    up = false;
    const during = await makeLeads('During');
    await eventually('a failed attempt of each of batch 2 to be recorded', async () => {
      const list = (await api.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries?status=failed&limit=1000`)).body.data as { event_id: string }[];
      return during.every((id) => list.some((d) => d.event_id === id));
    });
    expect(await sandbox.stop('SIGKILL')).toBeNull(); // killed by the signal, no exit code
    expect(pendingRows()).toBeGreaterThanOrEqual(5);
    const requestsBeforeRestart = r.received.length;

    up = true;
    sandbox = await startSandboxProcess(args, { db });
    api = apiClient(sandbox);
    await r.waitFor('batch 2 after the restart', () => during.every((id) => r.successes(id) === 1));

    for (const id of [...before, ...during]) expect(r.successes(id), id).toBe(1);
    // Nothing from batch 1 was sent again after the restart.
    expect(r.received.slice(requestsBeforeRestart).filter((x) => before.includes(x.id))).toEqual([]);
    // The attempts made before the crash are in the log, and the delivery that succeeded after it.
    const rows = await eventually('the successes to be recorded', async () => {
      const list = (await api.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries?limit=1000`)).body.data as any[];
      return list.filter((d) => d.status === 'succeeded').length === 10 ? list : undefined;
    });
    for (const id of during) {
      const attempts = rows.filter((d) => d.event_id === id);
      expect(attempts.at(-1).status).toBe('succeeded');
      expect(attempts.slice(0, -1).every((d) => d.status === 'failed' && d.status_code === 503)).toBe(true);
      expect(attempts.length).toBeGreaterThanOrEqual(2);
    }
  });
});
