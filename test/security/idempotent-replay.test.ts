import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient, type ApiResponse } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

/**
 * A finding (docs/security.md): idempotent replays were answered before the checks that need the body (the scopes a
 * conversion writes, the scopes a new key or OAuth app may hold, the key to revoke), so a narrower
 * key that learnt another key's Idempotency-Key (the request log shows them to `logs:read`) got
 * that request's stored response. Each test replays an admin's request with another credential of
 * the same account, another account, or a revoked key, and checks that it is refused exactly as
 * the same request without the header would be, and that nothing of the stored response leaks.
 */
let sandbox: RunningApp;
let api: ApiClient;
let otherAccount: ApiClient; // the admin key of another account: `*` there
useApp({}, (s, a) => ((sandbox = s), (api = a)));
beforeAll(async () => {
  const created = await api.post('/_sandbox/accounts', { name: 'other', plan: 'pro' });
  expect(created.status, created.text).toBe(201);
  otherAccount = apiClient({ baseUrl: sandbox.baseUrl, apiKey: created.body.api_key });
});

let n = 0;
const freshKey = () => `replay-${process.pid}-${Date.now()}-${n++}`;
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

/** A client for a new key of the default account holding `scopes`. */
async function keyWith(scopes: string[], expiresAt?: string): Promise<{ id: string; client: ApiClient }> {
  const res = await api.post('/v1/api_keys', { name: scopes.join(' '), scopes, ...(expiresAt ? { expires_at: expiresAt } : {}) });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id, client: apiClient({ baseUrl: sandbox.baseUrl, apiKey: res.body.secret }) };
}

/** Refused for `scope`, as a fresh request would be, with none of `stored` (values of the stored response) in it. */
function expectRefusedFor(res: ApiResponse, scope: string, stored: string[]): void {
  expect(res.status, res.text).toBe(403);
  expect(res.body.code).toBe('insufficient_scope');
  expect(res.body.detail).toContain(`'${scope}'`);
  expect(res.headers.get('idempotent-replayed')).toBeNull();
  for (const value of stored) expect(res.text).not.toContain(value);
}

function expectReplayOf(res: ApiResponse, stored: ApiResponse): void {
  expect(res.status, res.text).toBe(stored.status);
  expect(res.headers.get('idempotent-replayed')).toBe('true');
  expect(res.body.id ?? res.body.lead?.id).toBe(stored.body.id ?? stored.body.lead?.id);
}

describe('a replay runs every access check first', () => {
  it('POST /v1/leads/{id}/convert: a clients:write key gets 403, not the lead, client and deal', async () => {
    const lead = await api.post('/v1/leads', { first_name: 'Ada', last_name: 'Convert', company: 'Convert GmbH' });
    const path = `/v1/leads/${lead.body.id}/convert`;
    const body = { deal: { title: 'First order', value: 1200, currency: 'EUR' } };
    const key = freshKey();
    const converted = await api.post(path, body, withKey(key));
    expect(converted.status, converted.text).toBe(201);
    const made = [converted.body.client.id, converted.body.deal.id];
    expect(made.every((v) => typeof v === 'string')).toBe(true);

    expectRefusedFor(await (await keyWith(['clients:write'])).client.post(path, body, withKey(key)), 'leads:write', made);
    // With the deal in the body, deals:write is needed too.
    expectRefusedFor(await (await keyWith(['clients:write', 'leads:write'])).client.post(path, body, withKey(key)), 'deals:write', made);

    // A key of the same account that could make the request itself gets the stored response (keys
    // are the account's, as at Stripe), and the admin's own retry still does.
    expectReplayOf(await (await keyWith(['clients:write', 'leads:write', 'deals:write'])).client.post(path, body, withKey(key)), converted);
    expectReplayOf(await api.post(path, body, withKey(key)), converted);
  });

  it('POST /v1/api_keys: a narrower keys:write key gets 403, not the new key', async () => {
    const body = { name: 'ci deploy', scopes: ['*'] };
    const key = freshKey();
    const created = await api.post('/v1/api_keys', body, withKey(key));
    expect(created.status, created.text).toBe(201);
    expectRefusedFor(await (await keyWith(['keys:write'])).client.post('/v1/api_keys', body, withKey(key)), '*', [created.body.id, created.body.secret]);
    expect(created.body.secret).toMatch(/^crm_test_/);
    expectReplayOf(await api.post('/v1/api_keys', body, withKey(key)), created);
  });

  it('POST /v1/api_keys: a key that expires gets 422 outlives_creator, not a key that never expires', async () => {
    const body = { name: 'forever', scopes: ['leads:read'] };
    const key = freshKey();
    const created = await api.post('/v1/api_keys', body, withKey(key));
    expect(created.status, created.text).toBe(201);
    const shortLived = await keyWith(['keys:write', 'leads:read'], new Date(Date.now() + 3_600_000).toISOString());
    const res = await shortLived.client.post('/v1/api_keys', body, withKey(key));
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].code).toBe('outlives_creator');
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(res.text).not.toContain(created.body.id);
  });

  it('POST /v1/oauth_apps: a key without the app’s scopes gets 403, not the app', async () => {
    const body = { name: 'Replayed app', redirect_uris: ['http://127.0.0.1:9/callback'], scopes: ['leads:read', 'deals:write'] };
    const key = freshKey();
    const registered = await api.post('/v1/oauth_apps', body, withKey(key));
    expect(registered.status, registered.text).toBe(201);
    const narrow = await keyWith(['keys:write', 'leads:read']);
    const res = await narrow.client.post('/v1/oauth_apps', body, withKey(key));
    expectRefusedFor(res, 'deals:write', [registered.body.id, registered.body.client_id]);
  });

  it('DELETE /v1/api_keys/{id}: a key without the revoked key’s scopes gets 403, not the revoked key', async () => {
    const target = await keyWith(['leads:read', 'deals:read']);
    const key = freshKey();
    const revoked = await api.delete(`/v1/api_keys/${target.id}`, withKey(key));
    expect(revoked.status, revoked.text).toBe(200);
    expectRefusedFor(await (await keyWith(['keys:write', 'leads:read'])).client.delete(`/v1/api_keys/${target.id}`, withKey(key)), 'deals:read', [
      revoked.body.revoked_at,
      revoked.body.name,
    ]);
    expectReplayOf(await api.delete(`/v1/api_keys/${target.id}`, withKey(key)), revoked);
  });

  it('another account’s key with the same Idempotency-Key makes its own request: no replay', async () => {
    const body = { name: 'same key elsewhere', scopes: ['leads:read'] };
    const key = freshKey();
    const created = await api.post('/v1/api_keys', body, withKey(key));
    const elsewhere = await otherAccount.post('/v1/api_keys', body, withKey(key));
    expect(elsewhere.status, elsewhere.text).toBe(201);
    expect(elsewhere.headers.get('idempotent-replayed')).toBeNull();
    expect(elsewhere.body.id).not.toBe(created.body.id);
    expect(elsewhere.body.secret).toMatch(/^crm_test_/); // a new key's secret: a replay never holds one

    const lead = await api.post('/v1/leads', { first_name: 'Not', last_name: 'Theirs' });
    const convertKey = freshKey();
    expect((await api.post(`/v1/leads/${lead.body.id}/convert`, {}, withKey(convertKey))).status).toBe(201);
    const notFound = await otherAccount.post(`/v1/leads/${lead.body.id}/convert`, {}, withKey(convertKey));
    expect(notFound.status, notFound.text).toBe(404);
    expect(notFound.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a revoked key gets 401, not the replay', async () => {
    const body = { first_name: 'Before', last_name: 'Revocation' };
    const key = freshKey();
    const writer = await keyWith(['leads:write']);
    const created = await writer.client.post('/v1/leads', body, withKey(key));
    expect(created.status, created.text).toBe(201);
    expect((await api.delete(`/v1/api_keys/${writer.id}`)).status).toBe(200);
    const res = await writer.client.post('/v1/leads', body, withKey(key));
    expect(res.status, res.text).toBe(401);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(res.text).not.toContain(created.body.id);
  });

  it('a stored validation failure still replays to a key that may make the request', async () => {
    const key = freshKey();
    const body = { name: 'bad', scopes: ['no:such:scope'] };
    const first = await api.post('/v1/api_keys', body, withKey(key));
    expect(first.status, first.text).toBe(422);
    const again = await (await keyWith(['keys:write'])).client.post('/v1/api_keys', body, withKey(key));
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });
});
