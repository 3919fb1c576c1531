import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../helpers/receiver.js';
import { apiClient, type ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { openSseStream } from '../helpers/sse-stream.js';

/** Accounts, plans, test clocks and snapshots (docs/accounts.md), against a real sandbox process on a file. */
let sandbox: RunningApp;
let admin: ApiClient;
useApp({ seed: 1 }, (s, a) => ((sandbox = s), (admin = a)));

async function newAccount(body: Record<string, unknown> = {}) {
  const res = await admin.post('/_sandbox/accounts', { name: 'test account', ...body });
  expect(res.status, res.text).toBe(201);
  return { ...res.body, api: apiClient({ baseUrl: sandbox.baseUrl, apiKey: res.body.api_key }) } as {
    id: string;
    plan: string;
    api_key: string;
    api: ApiClient;
  };
}

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

describe('isolated accounts', () => {
  it('a new account is seeded like the sandbox, and neither account sees the other’s writes, events or logs', async () => {
    const other = await newAccount({ plan: 'pro' });
    expect(other.id).toMatch(/^acct_/);
    expect(other.api_key).toMatch(/^crm_test_/);
    const seededHere = (await admin.get('/v1/clients?limit=1000')).body.data.length;
    expect((await other.api.get('/v1/clients?limit=1000')).body.data.length).toBeGreaterThan(0);

    const mine = await admin.post('/v1/leads', { first_name: 'Default', last_name: 'Only' });
    const theirs = await other.api.post('/v1/leads', { first_name: 'Other', last_name: 'Only' });
    expect((await other.api.get(`/v1/leads/${mine.body.id}`)).status).toBe(404);
    expect((await admin.get(`/v1/leads/${theirs.body.id}`)).status).toBe(404);
    const theirEvents = await other.api.get('/v1/events?type=lead.created&limit=1000');
    expect(theirEvents.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toContain(theirs.body.id);
    expect(theirEvents.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id)).not.toContain(mine.body.id);
    const theirLogs = await other.api.get('/v1/request_logs?limit=1000');
    expect(theirLogs.body.data.some((l: { path: string; key_id: string | null }) => l.path === `/v1/leads/${mine.body.id}` && l.key_id)).toBe(true);
    const myLogs = await admin.get('/v1/request_logs?limit=1000');
    expect(ids(myLogs)).not.toEqual(expect.arrayContaining([theirLogs.body.data[0].id]));
    // Keys are per account: the other's list holds only its own admin key.
    expect((await other.api.get('/v1/api_keys')).body.data.map((k: { name: string }) => k.name)).toEqual(['Account admin']);
    expect((await admin.get('/v1/clients?limit=1000')).body.data.length).toBe(seededHere);
  });

  it('the event stream and webhook deliveries are per account too', async () => {
    const other = await newAccount({ plan: 'pro', seed: null });
    const receiver = await startReceiver();
    const stream = await openSseStream(`${sandbox.baseUrl}/v1/events/stream`, { authorization: `Bearer ${other.api_key}` });
    try {
      expect((await other.api.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['lead.created'] })).status).toBe(201);
      await stream.until('the stream to open', () => stream.messages.length > 0 || stream.status === 200);
      const mine = await admin.post('/v1/leads', { first_name: 'Default stream' });
      const theirs = await other.api.post('/v1/leads', { first_name: 'Other stream' });
      await stream.until('their lead', () => stream.messages.some((m) => m.hasData && JSON.parse(m.data).data.object.id === theirs.body.id));
      await receiver.waitFor('their delivery', () => receiver.received.some((r) => JSON.parse(r.body).data.object.id === theirs.body.id));
      const ids = (texts: string[]) => texts.map((t) => JSON.parse(t).data.object.id);
      expect(ids(stream.messages.filter((m) => m.hasData).map((m) => m.data))).not.toContain(mine.body.id);
      expect(ids(receiver.received.map((r) => r.body))).toEqual([theirs.body.id]);
    } finally {
      await stream.close();
      await receiver.close();
    }
  });

  it('GET /v1/account answers for any key with its plan and limits; the default account is pro', async () => {
    const mine = await admin.get('/v1/account');
    expect(mine.body).toMatchObject({ plan: 'pro', trial_ends_at: null, limits: { bulk_records: 1000, webhook_endpoints: null } });
    const free = await newAccount();
    const theirs = await free.api.get('/v1/account');
    expect(theirs.body).toMatchObject({
      id: free.id,
      plan: 'free',
      limits: { rate_limit: { limit: 100, window_seconds: 10 }, quota: { limit: 250000, window_seconds: 86400 }, webhook_endpoints: 2, bulk_records: 100 },
    });
    expect((await free.api.get('/v1/leads?limit=1')).headers.get('ratelimit-policy')).toBe('"burst";q=100;w=10, "daily";q=250000;w=86400');
  });

  it('an empty account (seed null), listed, then deleted: its key fails and its file is gone', async () => {
    const empty = await newAccount({ seed: null });
    expect((await empty.api.get('/v1/leads')).body.data).toEqual([]);
    expect(ids(await admin.get('/_sandbox/accounts'))).toContain(empty.id);
    const file = join(dirname(sandbox.db), 'sandbox.accounts', `${empty.id}.db`);
    expect(existsSync(file)).toBe(true);
    const deleted = await admin.delete(`/_sandbox/accounts/${empty.id}`);
    expect(deleted.body).toEqual({ id: empty.id, deleted: true });
    expect((await empty.api.get('/v1/leads')).status).toBe(401);
    expect(readdirSync(dirname(file)).filter((f) => f.startsWith(empty.id))).toEqual([]);
    expect(ids(await admin.get('/_sandbox/accounts'))).not.toContain(empty.id);
  });

  it('refuses: unknown account 404, deleting the default 409, /_sandbox/* with another account’s key or a narrower key 403', async () => {
    expect((await admin.get('/_sandbox/accounts/acct_nope')).status).toBe(404);
    expect((await admin.post('/_sandbox/accounts/acct_nope/clock', { advance: '1d' })).status).toBe(404);
    const me = (await admin.get('/v1/account')).body.id;
    const refused = await admin.delete(`/_sandbox/accounts/${me}`);
    expect(refused.status).toBe(409);
    const other = await newAccount();
    for (const [method, path] of [
      ['GET', '/_sandbox/accounts'],
      ['POST', '/_sandbox/reset'],
      ['GET', '/_sandbox/mailbox'],
    ] as const) {
      const res = await other.api.request(method, path);
      expect(res.status, path).toBe(403);
      expect(res.body.detail).toContain('sandbox admin key');
    }
    const narrow = await admin.post('/v1/api_keys', { name: 'reader', scopes: ['leads:read'] });
    expect((await admin.get('/_sandbox/accounts', { key: narrow.body.secret })).status).toBe(403);
  });
});

describe('plans and the trial', () => {
  it('a free account gets 402 plan_limit for a bulk call over 100 records and a third webhook endpoint; a trial lifts both, once', async () => {
    const free = await newAccount();
    const records = Array.from({ length: 101 }, (_, i) => ({ first_name: `Bulk ${i}` }));
    const bulk = await free.api.post('/v1/leads/bulk', { mode: 'create', records });
    expect(bulk.status).toBe(402);
    expect(bulk.body).toMatchObject({ code: 'plan_limit', errors: [{ code: 'bulk_records' }] });
    expect(bulk.body.detail).toContain('trial');
    expect((await free.api.get('/v1/leads?limit=1000')).body.data.some((l: { first_name: string }) => l.first_name === 'Bulk 0')).toBe(false);
    for (let i = 0; i < 2; i++) expect((await free.api.post('/v1/webhook_endpoints', { url: `http://127.0.0.1:9/hook/${i}` })).status).toBe(201);
    const third = await free.api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook/3' });
    expect(third.status).toBe(402);
    expect(third.body.errors[0].code).toBe('webhook_endpoints');

    const trial = await free.api.post('/v1/account/trial');
    expect(trial.status).toBe(200);
    expect(trial.body.plan).toBe('trial');
    expect(Date.parse(trial.body.trial_ends_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect((await free.api.post('/v1/leads/bulk', { mode: 'create', records })).status).toBe(200);
    expect((await free.api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook/3' })).status).toBe(201);
    expect((await free.api.post('/v1/account/trial')).status).toBe(409);
  });

  it('watching a trial expire: the clock moves 7 days, the account is free again with account.trial_ended', async () => {
    const account = await newAccount({ plan: 'trial' });
    expect((await account.api.get('/v1/account')).body.plan).toBe('trial');
    await admin.post(`/_sandbox/accounts/${account.id}/clock`, { advance: '6d23h' });
    expect((await account.api.get('/v1/account')).body.plan).toBe('trial');
    const moved = await admin.post(`/_sandbox/accounts/${account.id}/clock`, { advance: '2h' });
    expect(moved.status).toBe(200);
    expect(moved.body.offset_seconds).toBeGreaterThanOrEqual(7 * 86_400 + 3_600 - 5);
    expect((await account.api.get('/v1/account')).body).toMatchObject({ plan: 'free', limits: { bulk_records: 100 } });
    const ended = await account.api.get('/v1/events?type=account.trial_ended');
    expect(ended.body.data).toHaveLength(1);
    expect(ended.body.data[0].data.object).toMatchObject({ id: account.id, plan: 'free' });
    expect(ended.body.data[0].previous_attributes).toEqual({ plan: 'trial' });
    expect((await account.api.post('/v1/account/trial')).status).toBe(409); // once
  });
});

describe('test clocks', () => {
  it('timestamps follow the clock; an open invoice past its due date becomes overdue once; the clock never goes back', async () => {
    const account = await newAccount({ plan: 'pro', seed: null });
    const client = await account.api.post('/v1/clients', { name: 'Slow Payer', email: 'ap@slow.example' });
    const due = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const invoice = await account.api.post('/v1/invoices', {
      client_id: client.body.id,
      line_items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
      due_date: due,
      send: true,
    });
    expect(invoice.body.overdue_at).toBeNull();

    // Credentials live in real time (docs/accounts.md#test-clocks lists what follows the clock): a key good for one more day stays good.
    const shortKey = await account.api.post('/v1/api_keys', {
      name: 'one day',
      scopes: ['leads:read'],
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const clock = await admin.post(`/_sandbox/accounts/${account.id}/clock`, { advance: '5d' });
    const now = Date.parse(clock.body.now);
    expect((await account.api.get('/v1/leads?limit=1', { key: shortKey.body.secret })).status).toBe(200);
    const after = await account.api.get(`/v1/invoices/${invoice.body.id}`);
    expect(after.body).toMatchObject({ status: 'open', overdue_at: expect.any(String) });
    expect(Math.abs(Date.parse(after.body.overdue_at) - now)).toBeLessThan(60_000);
    const lead = await account.api.post('/v1/leads', { first_name: 'Future' });
    expect(Date.parse(lead.body.created_at)).toBeGreaterThanOrEqual(now);

    await admin.post(`/_sandbox/accounts/${account.id}/clock`, { advance: '1d' });
    const overdue = await account.api.get('/v1/events?type=invoice.overdue');
    expect(overdue.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toEqual([invoice.body.id]);

    const back = await admin.post(`/_sandbox/accounts/${account.id}/clock`, { to: new Date(now - 1000).toISOString() });
    expect(back.status).toBe(422);
    expect(back.body.errors[0]).toMatchObject({ path: 'to', code: 'backwards' });
    expect((await admin.post(`/_sandbox/accounts/${account.id}/clock`, { advance: 'soon' })).status).toBe(422);
    expect((await admin.post(`/_sandbox/accounts/${account.id}/clock`, {})).status).toBe(422);
    // The default account's clock did not move.
    expect((await admin.get(`/_sandbox/accounts/${(await admin.get('/v1/account')).body.id}/clock`)).body.offset_seconds).toBe(0);
  });
});

describe('test clocks: retries and retention', () => {
  it('webhook retries that fall due go out when the clock passes them (the 5-minute retry, in no time)', async () => {
    const account = await newAccount({ plan: 'pro', seed: null });
    let answerSecond!: (status: number) => void;
    const secondAnswer = new Promise<number>((resolve) => (answerSecond = resolve));
    const receiver = await startReceiver(({ n }) => (n === 1 ? 500 : n === 2 ? secondAnswer : 200));
    try {
      await account.api.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['lead.created'] });
      await account.api.post('/v1/leads', { first_name: 'Retried' });
      await receiver.waitFor('the first attempt', () => receiver.received.length === 1);
      await admin.post(`/_sandbox/accounts/${account.id}/clock`, { advance: '1m' }); // past the 5 s retry
      await receiver.waitFor('the second attempt', () => receiver.received.length === 2);
      // The clock moves while the second attempt waits for its answer: its 5-minute retry is
      // timed from the attempt, so it falls due now rather than 5 minutes after the move.
      await admin.post(`/_sandbox/accounts/${account.id}/clock`, { advance: '10m' });
      answerSecond(500);
      await receiver.waitFor('the third attempt', () => receiver.received.length === 3);
      expect(receiver.received.map((r) => r.status)).toEqual([500, 500, 200]);
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1); // one event, one webhook-id
    } finally {
      answerSecond(500);
      await receiver.close();
    }
  });

  it('an idempotency key past its 24 h retention is free again once the clock passes it', async () => {
    const account = await newAccount({ plan: 'pro', seed: null });
    const key = 'retention-test-key';
    const first = await account.api.post('/v1/leads', { first_name: 'First' }, { headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    const reused = await account.api.post('/v1/leads', { first_name: 'Other body' }, { headers: { 'idempotency-key': key } });
    expect(reused.status).toBe(422);
    await admin.post(`/_sandbox/accounts/${account.id}/clock`, { advance: '25h' });
    const fresh = await account.api.post('/v1/leads', { first_name: 'Other body' }, { headers: { 'idempotency-key': key } });
    expect(fresh.status).toBe(201);
    expect(fresh.body.id).not.toBe(first.body.id);
  });
});

describe('snapshots', () => {
  it('save, change, restore: the data, events and clock come back; keys made since stay valid', async () => {
    const account = await newAccount({ plan: 'pro' });
    const path = `/_sandbox/accounts/${account.id}/snapshots`;
    const before = ids(await account.api.get('/v1/leads?limit=1000'));
    const eventsBefore = ids(await account.api.get('/v1/events?limit=1000'));
    expect((await admin.post(path, { name: 'seeded' })).status).toBe(201);

    await account.api.post('/v1/leads', { first_name: 'After snapshot' });
    await account.api.delete(`/v1/leads/${before[0]}`);
    await admin.post(`/_sandbox/accounts/${account.id}/clock`, { advance: '2d' });
    const key = await account.api.post('/v1/api_keys', { name: 'made later', scopes: ['leads:read'] });

    const restored = await admin.post(`${path}/seeded/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ name: 'seeded', restored: true });
    expect(ids(await account.api.get('/v1/leads?limit=1000'))).toEqual(before);
    expect(ids(await account.api.get('/v1/events?limit=1000'))).toEqual(eventsBefore);
    expect((await admin.get(`/_sandbox/accounts/${account.id}/clock`)).body.offset_seconds).toBe(0);
    expect((await account.api.get('/v1/leads?limit=1', { key: key.body.secret })).status).toBe(200);
    // Search rows are made again: a seeded client is found by name.
    const someClient = (await account.api.get('/v1/clients?limit=1')).body.data[0];
    expect(ids(await account.api.get(`/v1/clients?q=${encodeURIComponent(someClient.name.split(' ')[0])}`))).toContain(someClient.id);

    expect(ids({ body: { data: (await admin.get(path)).body.data.map((s: { name: string }) => ({ id: s.name })) } })).toEqual(['seeded']);
    expect((await admin.post(path, { name: 'seeded' })).status).toBe(409);
    expect((await admin.post(`${path}/nope/restore`)).status).toBe(404);
    expect((await admin.post(path, { name: '../escape' })).status).toBe(422);
    expect((await admin.delete(`${path}/seeded`)).body).toEqual({ name: 'seeded', deleted: true });
    expect((await admin.post(`${path}/seeded/restore`)).status).toBe(404);
  });

  it('restoring while requests run never shows a half-restored account', async () => {
    const account = await newAccount({ plan: 'pro', seed: null });
    const path = `/_sandbox/accounts/${account.id}/snapshots`;
    await admin.post(path, { name: 'empty' });
    const records = Array.from({ length: 300 }, (_, i) => ({ first_name: `Full ${i}` }));
    await account.api.post('/v1/leads/bulk', { mode: 'create', records });
    await admin.post(path, { name: 'full' });
    const seen = new Set<number>();
    let stop = false;
    const readers = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const page = await account.api.get('/v1/leads?limit=1000');
        seen.add(page.body.data.length);
      }
    });
    for (let i = 0; i < 10; i++) {
      expect((await admin.post(`${path}/${i % 2 ? 'full' : 'empty'}/restore`)).status).toBe(200);
    }
    stop = true;
    await Promise.all(readers);
    expect(
      [...seen].every((n) => n === 0 || n === 300),
      [...seen].join(','),
    ).toBe(true);
    expect(seen.size).toBe(2);
  });
});
