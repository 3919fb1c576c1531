import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../helpers/receiver.js';
import { apiClient, startSandboxProcess, tempDir } from '../helpers/sandbox.js';

/**
 * docs/sandbox.md: a sandbox stopped by SIGINT or SIGTERM exits 0, never by a signal — with writes
 * behind it, webhook deliveries pending (one receiver hangs, one fails), an event stream and a
 * usage stream connected. better-sqlite3 12 aborted Node 24 processes here (SIGABRT in
 * Statement::~Statement); this runs the stop 20 times on the Node running the suite.
 */
const CYCLES = 20;
const dir = tempDir();
const fileDb = `${dir.path}/sandbox.db`;
const KEY = 'crm_test_LifecycleLifecycleLifecycle1234';

afterAll(() => dir.remove());

/** A webhook receiver that, while `hang` is set, takes each request and never answers (a delivery stays in flight); else answers 503. */
async function startHangingReceiver() {
  let arrived = 0;
  const server = createServer((_req, res) => {
    arrived++;
    if (!receiver.hang) res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver = {
    hang: false,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrived: () => arrived,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
  return receiver;
}

/** Opens a Server-Sent Events stream and resolves once its first bytes arrived (it stays open). */
async function openStream(baseUrl: string, path: string): Promise<AbortController> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${KEY}` }, signal: abort.signal });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  await reader.read();
  // Keep reading in the background so the server never blocks on a full socket; the stream ends with the sandbox.
  void (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // aborted or cut by the stopping server: expected
    }
  })();
  return abort;
}

describe(`crm sandbox start stopped by a signal, ${CYCLES} times`, () => {
  it('exits 0 every time, with writes, pending webhooks and open streams, and keeps what it wrote', async () => {
    const hanging = await startHangingReceiver();
    const failing = await startReceiver(() => 500);
    let fileLeads = 0;
    try {
      for (let i = 0; i < CYCLES; i++) {
        const onFile = i % 2 === 0;
        const signal: NodeJS.Signals = i % 4 < 2 ? 'SIGTERM' : 'SIGINT';
        const args = ['--no-seed', '--api-key', KEY, '--webhook-time-scale', '0.001'];
        const sandbox = await startSandboxProcess(onFile ? args : [...args, '--db', ':memory:'], onFile ? { db: fileDb } : {});
        const api = apiClient(sandbox);
        if (onFile) {
          // The leads of earlier cycles on the file survived their stops.
          const before = await api.get('/v1/leads?limit=100');
          expect(before.body.data).toHaveLength(fileLeads);
        }
        if (!onFile || i === 0) {
          for (const receiver of [hanging, failing]) {
            expect((await api.post('/v1/webhook_endpoints', { url: receiver.url })).status).toBe(201);
          }
        }
        const streams = [await openStream(sandbox.baseUrl, '/v1/events/stream'), await openStream(sandbox.baseUrl, '/v1/usage/stream')];
        hanging.hang = i % 4 === 3;
        const arrivedBefore = hanging.arrived();
        const created = await api.post('/v1/leads', { first_name: `Cycle ${i}`, email: `cycle${i}@example.com` });
        expect(created.status).toBe(201);
        if (onFile) fileLeads++;
        await failing.waitFor('a failed delivery', () => failing.received.some((r) => r.body.includes(created.body.id)));
        // Every fourth cycle, a delivery still in flight (the stop gives it 2 s, then aborts it: pending again).
        if (hanging.hang) while (hanging.arrived() === arrivedBefore) await new Promise((r) => setTimeout(r, 20));

        sandbox.process.kill(signal);
        const { code, signal: killedBy } = await sandbox.exited;
        expect({ cycle: i, signal, code, killedBy, stderr: sandbox.stderr() }).toEqual({ cycle: i, signal, code: 0, killedBy: null, stderr: '' });
        for (const stream of streams) stream.abort();
      }
    } finally {
      await hanging.close();
      await failing.close();
    }
  }, 240_000);
});
