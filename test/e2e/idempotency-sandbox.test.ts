import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp } from '../helpers/app.js';

/**
 * The sandbox controls (docs/reference/limits.md#idempotency): the sandbox controls (/_sandbox/*) honour Idempotency-Key as /v1 does, in a
 * namespace of their own; and a body is one request whatever the order of its members.
 */
let api: ApiClient;
useApp({}, (_s, a) => (api = a));

let n = 0;
const freshKey = () => `sandbox-${process.pid}-${Date.now()}-${n++}`;
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

describe('Idempotency-Key on /_sandbox writes', () => {
  it('two POST /_sandbox/accounts with one key make one account; the replay holds no admin key', async () => {
    const key = freshKey();
    const first = await api.post('/_sandbox/accounts', { name: 'Once', seed: null }, withKey(key));
    expect(first.status).toBe(201);
    expect(first.body.api_key).toMatch(/^crm_test_/);
    const again = await api.post('/_sandbox/accounts', { name: 'Once', seed: null }, withKey(key));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.api_key).not.toBe(first.body.api_key); // a secret is never stored for replays
    const accounts = await api.get('/_sandbox/accounts');
    expect(accounts.body.data.filter((a: { name: string }) => a.name === 'Once')).toHaveLength(1);
    // The key is taken: another body with it is refused, not run.
    const other = await api.post('/_sandbox/accounts', { name: 'Twice', seed: null }, withKey(key));
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
  });

  it('two POST /_sandbox/faults with one key arm one fault', async () => {
    const key = freshKey();
    const rule = { path_prefix: '/v1/pipelines', count: 3 };
    expect((await api.post('/_sandbox/faults', rule, withKey(key))).status).toBe(201);
    const again = await api.post('/_sandbox/faults', rule, withKey(key));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await api.get('/_sandbox/faults')).body.data).toEqual([{ method: '*', path_prefix: '/v1/pipelines', status: 503, count: 3 }]);
    await api.delete('/_sandbox/faults');
  });

  it('two POST /_sandbox/dashboard_logins with one key make one sign-in link, not shown again', async () => {
    const key = freshKey();
    const first = await api.post('/_sandbox/dashboard_logins', undefined, withKey(key));
    expect(first.status).toBe(201);
    const again = await api.post('/_sandbox/dashboard_logins', undefined, withKey(key));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.expires_at).toBe(first.body.expires_at);
    expect(again.text).not.toContain(first.body.token);
  });

  it('keeps sandbox keys apart from /v1 keys: one key on both names two requests', async () => {
    const key = freshKey();
    expect((await api.post('/v1/leads', { first_name: 'Shared' }, withKey(key))).status).toBe(201);
    const sandbox = await api.post('/_sandbox/faults', { path_prefix: '/v1/nothing-here' }, withKey(key));
    expect(sandbox.status).toBe(201);
    expect(sandbox.headers.get('idempotent-replayed')).toBeNull();
    await api.delete('/_sandbox/faults');
  });
});

describe('the idempotency fingerprint', () => {
  it('is the same for one object with its members in another order (at any depth): a replay, not 422', async () => {
    const key = freshKey();
    const first = await api.request('POST', '/v1/clients', {
      rawBody: '{"name":"Ordered","address":{"city":"Paris","country":"FR"},"tags":["a","b"]}',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    expect(first.status).toBe(201);
    const reordered = await api.request('POST', '/v1/clients', {
      rawBody: '{"tags":["a","b"], "address":{"country":"FR","city":"Paris"},"name":"Ordered"}',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    expect(reordered.status).toBe(201);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(reordered.body.id).toBe(first.body.id);
    // Order inside an array is meaning, not spelling: another request.
    const otherOrder = await api.request('POST', '/v1/clients', {
      rawBody: '{"name":"Ordered","address":{"city":"Paris","country":"FR"},"tags":["b","a"]}',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    expect(otherOrder.status).toBe(422);
    expect(otherOrder.body.code).toBe('idempotency_key_reused');
  });
});
