import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/verify.js';
import { runCrm, spawnCrm } from '../helpers/cli-process.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { apiClient, startSandboxProcess, tempDir, type ApiClient, type RunningSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let api: ApiClient;
const dir = tempDir();
const receivers: Receiver[] = [];
const listeners: ReturnType<typeof spawnCrm>[] = [];

beforeAll(async () => {
  sandbox = await startSandboxProcess(['--no-seed']);
  api = apiClient(sandbox);
});
afterAll(async () => {
  for (const l of listeners) await l.stop('SIGKILL');
  await sandbox?.stop();
  await Promise.all(receivers.map((r) => r.close()));
  dir.remove();
});

async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

/** Starts `crm listen --json` and waits for its ready line (the stream is open then). */
async function listen(state: string, forwardTo: string, extra: string[] = [], target: { baseUrl: string; apiKey: string } = sandbox) {
  const l = spawnCrm(['listen', '--forward-to', forwardTo, '--state', state, '--json', '--base-url', target.baseUrl, '--api-key', target.apiKey, ...extra]);
  listeners.push(l);
  const ready = JSON.parse(await l.waitForLine((line) => line.includes('"ready"'))) as { secret: string; from: string };
  return { ...l, ready };
}

async function leads(n: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await api.post('/v1/leads', { first_name: `${prefix} ${i}` })).body.id);
  return ids;
}

/** Ids of the events after `afterId` (exclusive), oldest first, as the server lists them. */
async function eventIdsAfter(afterId: string | undefined): Promise<string[]> {
  const all = (await api.get('/v1/events?limit=1000')).body.data as { id: string }[];
  return all.map((e) => e.id).filter((id) => afterId === undefined || id > afterId);
}

describe('crm listen', () => {
  it('forwards events signed with its listen secret (verified by standardwebhooks), and prints a line per forward', async () => {
    const r = await receiver();
    const state = `${dir.path}/signed.json`;
    const l = await listen(state, r.url);
    expect(l.ready.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(l.ready.from).toBe('now');

    const [leadId] = await leads(1, 'Listened');
    await api.patch(`/v1/leads/${leadId}`, { last_name: 'Signed' });
    await r.waitFor('two forwards', () => r.received.length === 2);

    for (const got of r.received) {
      const headers = got.headers as Record<string, string>;
      const event = (await api.get(`/v1/events/${got.id}`)).body;
      expect(JSON.parse(got.body)).toEqual(event);
      expect(new Webhook(l.ready.secret).verify(got.body, headers)).toEqual(event);
      expect(verifyWebhook(l.ready.secret, headers, got.body)).toEqual(event);
    }
    expect(r.received.map((x) => JSON.parse(x.body).type)).toEqual(['lead.created', 'lead.updated']);

    const printed = await l.waitForLine((line) => line.includes(r.received[1]!.id));
    expect(JSON.parse(printed)).toMatchObject({ type: 'lead.updated', id: r.received[1]!.id, status: 200, ok: true });
    expect(typeof JSON.parse(printed).duration_ms).toBe('number');
    expect(await l.stop('SIGTERM')).toBe(0);
  });

  it('after a stop, forwards every event it missed, in order, none twice, with the same secret', async () => {
    const r = await receiver();
    const state = `${dir.path}/restart.json`;
    const first = await listen(state, r.url);
    const before = await leads(3, 'Before stop');
    await r.waitFor('the first three', () => r.received.length === 3);
    expect(await first.stop('SIGTERM')).toBe(0);
    const position = JSON.parse(readFileSync(state, 'utf8')).listeners[sandbox.baseUrl].last_event_id as string;
    expect(position).toBe(r.received[2]!.id);

    await leads(5, 'While down');
    const missed = await eventIdsAfter(position);
    expect(missed).toHaveLength(5);

    const second = await listen(state, r.url);
    expect(second.ready.secret).toBe(first.ready.secret);
    expect(second.ready.from).toBe(`after ${position}`);
    await r.waitFor('the missed five', () => r.received.length === 8);
    await leads(1, 'After restart');
    await r.waitFor('the live one', () => r.received.length === 9);

    const ids = r.received.map((x) => x.id);
    expect(new Set(ids).size).toBe(9);
    expect(ids.slice(3, 8)).toEqual(missed);
    expect([...ids].sort()).toEqual(ids); // in event order
    expect(r.received.every((x) => x.status === 200)).toBe(true);
    expect(before).toHaveLength(3);
    for (const got of r.received) expect(verifyWebhook(first.ready.secret, got.headers as Record<string, string>, got.body)).toBeTruthy();
    expect(await second.stop('SIGTERM')).toBe(0);
  });

  it('retries a failed forward, and holds the next event until it is through', async () => {
    const r = await receiver(({ seen, n }) => (n <= 2 && seen < 2 ? 500 : 200));
    const l = await listen(`${dir.path}/retry.json`, r.url, ['--retries', '3']);
    await leads(2, 'Retried');
    await r.waitFor('both events', () => r.received.filter((x) => x.status === 200).length === 2);
    const [a, b] = [...new Set(r.received.map((x) => x.id))];
    expect(r.received.map((x) => [x.id, x.status])).toEqual([
      [a, 500],
      [a, 500],
      [a, 200],
      [b, 200],
    ]);
    const lines = l.lines.filter((line) => line.includes(a!)).map((line) => JSON.parse(line));
    expect(lines.map((x) => [x.attempt, x.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(await l.stop('SIGTERM')).toBe(0);
  });

  it('forwards only the --events types, and starts --from a given event', async () => {
    const r = await receiver();
    const start = (await eventIdsAfter(undefined)).at(-1)!;
    const deal = (await api.post('/v1/deals', { title: 'Listened deal', value: 1, currency: 'EUR', stage: 'proposal' })).body;
    await api.post(`/v1/deals/${deal.id}/win`);
    const l = await listen(`${dir.path}/filtered.json`, r.url, ['--events', 'deal.won', '--from', start]);
    expect(l.ready.from).toBe(`after ${start}`);
    await r.waitFor('deal.won', () => r.received.length === 1);
    expect(JSON.parse(r.received[0]!.body)).toMatchObject({ type: 'deal.won', data: { object: { id: deal.id } } });
    expect(await l.stop('SIGTERM')).toBe(0);
    expect(r.received).toHaveLength(1); // deal.created was not forwarded
  });

  it('reconnects when the stream drops (the server restarts) and misses nothing', async () => {
    const key = 'crm_test_ListenReconnectListenReconnect12';
    const db = `${dir.path}/reconnect.db`;
    let server = await startSandboxProcess(['--no-seed', '--api-key', key], { db });
    const port = new URL(server.baseUrl).port;
    const r = await receiver();
    const l = await listen(`${dir.path}/reconnect.json`, r.url, [], { baseUrl: server.baseUrl, apiKey: key });
    await apiClient({ baseUrl: server.baseUrl, apiKey: key }).post('/v1/leads', { first_name: 'Before drop' });
    await r.waitFor('the first', () => r.received.length === 1);

    expect(await server.stop('SIGTERM')).toBe(0);
    server = await startSandboxProcess(['--no-seed', '--api-key', key, '--port', port], { db });
    try {
      await apiClient({ baseUrl: server.baseUrl, apiKey: key }).post('/v1/leads', { first_name: 'After drop' });
      await r.waitFor('the one after the drop', () => r.received.length === 2);
      expect(JSON.parse(r.received[1]!.body).data.object.first_name).toBe('After drop');
      expect(l.stderr()).toMatch(/stream dropped/);
    } finally {
      await l.stop('SIGTERM');
      await server.stop();
    }
  });

  it('refuses a bad --forward-to or --events as usage errors', async () => {
    const base = ['listen', '--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey, '--state', `${dir.path}/bad.json`];
    expect((await runCrm([...base, '--forward-to', 'nope'])).code).toBe(2);
    const unknown = await runCrm([...base, '--forward-to', 'http://127.0.0.1:9/', '--events', 'deal.exploded']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('deal.exploded');
  });
});

describe('crm events resend|replay --forward-to', () => {
  it('POST events to a local URL signed with the listen secret', async () => {
    const r = await receiver();
    const state = `${dir.path}/forward.json`;
    const since = new Date(Date.now() - 1000).toISOString();
    const ids = await leads(2, 'Replayed');
    const events = (await api.get(`/v1/events?type=lead.created&created_after=${encodeURIComponent(since)}`)).body.data as {
      id: string;
      data: { object: { id: string } };
    }[];
    const mine = events.filter((e) => ids.includes(e.data.object.id)).map((e) => e.id);
    expect(mine).toHaveLength(2);
    const common = ['--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey, '--state', state, '--forward-to', r.url];

    const resent = await runCrm(['events', 'resend', mine[0]!, ...common]);
    expect(resent.code, resent.stderr).toBe(0);
    const replayed = await runCrm(['events', 'replay', '--since', since, '--type', 'lead.created', ...common]);
    expect(replayed.code, replayed.stderr).toBe(0);

    expect(r.received.map((x) => x.id)).toEqual([mine[0], mine[0], mine[1]]);
    const secret = JSON.parse(readFileSync(state, 'utf8')).listeners[sandbox.baseUrl].secret as string;
    for (const got of r.received) expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({ type: 'lead.created' });
  });
});
