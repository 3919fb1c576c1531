import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { apiClient, startSandboxProcess, type ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

let sandbox: RunningApp;
let api: ApiClient;

useApp({}, (s, a) => {
  sandbox = s;
  api = a;
});

/** What the database holds, read beside the running sandbox (WAL allows a second reader). */
function countRows(sql: string, ...params: unknown[]): number {
  const db = new Database(sandbox.db, { readonly: true });
  try {
    return db
      .prepare(sql)
      .pluck()
      .get(...params) as number;
  } finally {
    db.close();
  }
}

const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });
let n = 0;
const freshKey = () => `test-${process.pid}-${Date.now()}-${n++}`;

describe('Idempotency-Key', () => {
  it('replays the stored response for the same key and request, with Idempotent-Replayed', async () => {
    const key = freshKey();
    const first = await api.post('/v1/leads', { first_name: 'Once', email: 'once@example.com' }, withKey(key));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await api.post('/v1/leads', { first_name: 'Once', email: 'once@example.com' }, withKey(key));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(countRows('SELECT count(*) FROM leads WHERE email = ?', 'once@example.com')).toBe(1);
    expect(countRows("SELECT count(*) FROM events WHERE type = 'lead.created' AND object_id = ?", first.body.id)).toBe(1);
  });

  it('50 concurrent POSTs with one key make exactly one record and one event', async () => {
    const key = freshKey();
    const body = { title: 'Concurrent', value: 10, currency: 'EUR', stage: 'qualified' };
    const responses = await Promise.all(Array.from({ length: 50 }, () => api.post('/v1/deals', body, withKey(key))));
    const created = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    const replayed = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === 'true');
    const inFlight = responses.filter((r) => r.status === 409 && r.body.code === 'idempotency_key_in_use');
    expect(created).toHaveLength(1);
    expect(created.length + replayed.length + inFlight.length).toBe(50);
    for (const r of replayed) expect(r.body.id).toBe(created[0]!.body.id);
    expect(countRows("SELECT count(*) FROM deals WHERE title = 'Concurrent'")).toBe(1);
    expect(countRows("SELECT count(*) FROM events WHERE type = 'deal.created' AND object_id = ?", created[0]!.body.id)).toBe(1);
  });

  it('refuses the same key with another body, path or method (422 idempotency_key_reused)', async () => {
    const key = freshKey();
    expect((await api.post('/v1/leads', { first_name: 'A' }, withKey(key))).status).toBe(201);
    for (const res of [await api.post('/v1/leads', { first_name: 'B' }, withKey(key)), await api.post('/v1/clients', { name: 'A' }, withKey(key))]) {
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('idempotency_key_reused');
    }
    expect(countRows("SELECT count(*) FROM leads WHERE first_name = 'B'")).toBe(0);
  });

  it('stores a 4xx and replays it, but not a 5xx: a retry after a 5xx runs again', async () => {
    const key = freshKey();
    const bad = await api.post('/v1/leads', { first_name: 'X', nope: 1 }, withKey(key));
    expect(bad.status).toBe(422);
    const badAgain = await api.post('/v1/leads', { first_name: 'X', nope: 1 }, withKey(key));
    expect(badAgain.status).toBe(422);
    expect(badAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(badAgain.body).toEqual(bad.body);

    const armed = await api.post('/_sandbox/faults', { method: 'POST', path_prefix: '/v1/leads', status: 500, count: 1 });
    expect(armed.status).toBe(201);
    const retryKey = freshKey();
    const failed = await api.post('/v1/leads', { first_name: 'AfterFault' }, withKey(retryKey));
    expect(failed.status).toBe(500);
    expect(failed.body.code).toBe('internal_error');
    expect(countRows("SELECT count(*) FROM leads WHERE first_name = 'AfterFault'")).toBe(0);
    const retried = await api.post('/v1/leads', { first_name: 'AfterFault' }, withKey(retryKey));
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(countRows("SELECT count(*) FROM leads WHERE first_name = 'AfterFault'")).toBe(1);
  });

  it('does not store 401 or 403: the same key works once the caller is allowed', async () => {
    const key = freshKey();
    const readOnly = await api.post('/v1/api_keys', { name: 'ro', scopes: ['leads:read'] });
    const denied = await api.post('/v1/leads', { first_name: 'Scoped' }, { ...withKey(key), key: readOnly.body.secret });
    expect(denied.status).toBe(403);
    const allowed = await api.post('/v1/leads', { first_name: 'Scoped' }, withKey(key));
    expect(allowed.status).toBe(201);
    expect(allowed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('covers PATCH, DELETE and actions', async () => {
    const deal = (await api.post('/v1/deals', { title: 'Act', value: 1, currency: 'EUR', stage: 'proposal' })).body;
    const winKey = freshKey();
    const won = await api.post(`/v1/deals/${deal.id}/win`, undefined, withKey(winKey));
    expect(won.status).toBe(200);
    const wonAgain = await api.post(`/v1/deals/${deal.id}/win`, undefined, withKey(winKey));
    expect(wonAgain.status).toBe(200); // replayed, not 409 invalid_transition
    expect(wonAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(countRows("SELECT count(*) FROM events WHERE type = 'deal.won' AND object_id = ?", deal.id)).toBe(1);

    const delKey = freshKey();
    expect((await api.delete(`/v1/deals/${deal.id}`, withKey(delKey))).status).toBe(200);
    const delAgain = await api.delete(`/v1/deals/${deal.id}`, withKey(delKey));
    expect(delAgain.status).toBe(200);
    expect(delAgain.body).toEqual({ id: deal.id, deleted: true });
  });

  it('accepts the structured-field form and refuses malformed keys', async () => {
    const key = freshKey();
    const quoted = await api.post('/v1/leads', { first_name: 'Quoted' }, { headers: { 'idempotency-key': `"${key}"` } });
    const bare = await api.post('/v1/leads', { first_name: 'Quoted' }, withKey(key));
    expect(bare.headers.get('idempotent-replayed')).toBe('true');
    expect(bare.body.id).toBe(quoted.body.id);
    for (const badKey of ['x'.repeat(256), 'has space', 'ümlaut']) {
      const res = await api.post('/v1/leads', { first_name: 'Bad key' }, { headers: { 'idempotency-key': badKey } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
    }
    expect(countRows("SELECT count(*) FROM leads WHERE first_name = 'Bad key'")).toBe(0);
  });
});

describe('Idempotency-Key across a restart', () => {
  it('replays after the sandbox restarts on the same database', async () => {
    const first = await startSandboxProcess(['--no-seed']);
    const key = freshKey();
    const body = { name: 'Survivor GmbH' };
    const created = await apiClient(first).post('/v1/clients', body, withKey(key));
    expect(created.status).toBe(201);
    expect(await first.stop('SIGKILL')).toBeNull(); // killed, not a clean stop

    const second = await startSandboxProcess(['--no-seed', '--api-key', first.apiKey], { db: first.db });
    try {
      const replay = await apiClient(second).post('/v1/clients', body, withKey(key));
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.id).toBe(created.body.id);
      const list = await apiClient(second).get('/v1/clients?limit=10');
      expect(list.body.data.filter((c: { name: string }) => c.name === 'Survivor GmbH')).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});

describe('Idempotency-Key and secrets', () => {
  it('never stores a secret for replay: the replay redacts it, the database holds no copy', async () => {
    const key = freshKey();
    const first = await api.post('/v1/api_keys', { name: 'retry me', scopes: ['leads:read'] }, withKey(key));
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^crm_test_/);
    const replay = await api.post('/v1/api_keys', { name: 'retry me', scopes: ['leads:read'] }, withKey(key));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.body.secret).not.toBe(first.body.secret);
    expect(replay.body.secret).toMatch(/^redacted/);
    expect(countRows('SELECT count(*) FROM idempotency_keys WHERE instr(response_body, ?) > 0', first.body.secret)).toBe(0);
    expect((await api.get('/v1/leads', { key: first.body.secret })).status).toBe(200);
  });
});
