import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/verify.js';
import { eventually, startReceiver, type Receiver } from '../helpers/receiver.js';
import { apiClient, type ApiClient } from '../helpers/sandbox.js';
import { startApp, useApp } from '../helpers/app.js';

let api: ApiClient;
const receivers: Receiver[] = [];

useApp({ webhookTimeScale: 0.001 }, (_started, client) => {
  api = client;
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

async function endpoint(url: string, enabled_events: string[] = ['*']) {
  const res = await api.post('/v1/webhook_endpoints', { url, enabled_events });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret: string };
}

async function lead(name = 'Ada') {
  const res = await api.post('/v1/leads', { first_name: name });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

/** The id of the (only) event of this type about this object. */
async function eventOf(type: string, objectId: string): Promise<string> {
  const res = await api.get(`/v1/events?type=${type}&limit=1000`);
  const event = res.body.data.find((e: { data: { object: { id: string } } }) => e.data.object.id === objectId);
  expect(event, `${type} for ${objectId}`).toBeDefined();
  return event.id;
}

const deliveries = async (endpointId: string, query = '') =>
  (await api.get(`/v1/webhook_endpoints/${endpointId}/deliveries?limit=1000${query}`)).body.data as any[];

describe('webhook endpoints', () => {
  it('are created with a whsec_ secret shown once, then read, listed, updated and deleted', async () => {
    const created = await endpoint('http://127.0.0.1:9/hook', ['deal.won', 'deal.lost']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);

    const got = await api.get(`/v1/webhook_endpoints/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    expect(got.body).toMatchObject({ url: 'http://127.0.0.1:9/hook', enabled_events: ['deal.won', 'deal.lost'], status: 'enabled' });

    const listed = await api.get('/v1/webhook_endpoints');
    expect(listed.body.data.map((e: { id: string }) => e.id)).toContain(created.id);
    expect(listed.body.data.every((e: object) => !('secret' in e))).toBe(true);

    const patched = await api.patch(`/v1/webhook_endpoints/${created.id}`, { description: 'CRM sync', status: 'disabled', enabled_events: ['*'] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ description: 'CRM sync', status: 'disabled', enabled_events: ['*'] });

    expect((await api.delete(`/v1/webhook_endpoints/${created.id}`)).body).toEqual({ id: created.id, deleted: true });
    expect((await api.get(`/v1/webhook_endpoints/${created.id}`)).status).toBe(404);
  });

  it('refuse bad URLs and event lists', async () => {
    for (const body of [
      { url: 'ftp://example.com/x' },
      { url: 'not a url' },
      { url: 'http://127.0.0.1:9/', enabled_events: ['*', 'deal.won'] },
      { url: 'http://127.0.0.1:9/', enabled_events: ['deal.exploded'] },
      { url: 'http://127.0.0.1:9/', enabled_events: [] },
      { url: 'http://127.0.0.1:9/', secret: 'whsec_mine' },
    ]) {
      const res = await api.post('/v1/webhook_endpoints', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it('need webhooks:read to read and webhooks:write to change', async () => {
    const reader = (await api.post('/v1/api_keys', { name: 'hooks reader', scopes: ['webhooks:read'] })).body.secret;
    expect((await api.get('/v1/webhook_endpoints', { key: reader })).status).toBe(200);
    const refused = await api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/' }, { key: reader });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="webhooks:write"');
    const other = (await api.post('/v1/api_keys', { name: 'events reader', scopes: ['events:read'] })).body.secret;
    expect((await api.get('/v1/webhook_endpoints', { key: other })).status).toBe(403);
  });
});

describe('deliveries', () => {
  it('are POSTs of the event JSON, signed as Standard Webhooks says (checked by the standardwebhooks package)', async () => {
    const r = await receiver();
    const { id, secret } = await endpoint(r.url);
    const made = await lead('Signed');
    const eventId = await eventOf('lead.created', made.id);
    await r.waitFor('the delivery', () => r.successes(eventId) === 1);
    const got = r.received.find((x) => x.id === eventId)!;

    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toBe(eventId);
    expect(got.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const event = (await api.get(`/v1/events/${eventId}`)).body;
    expect(JSON.parse(got.body)).toEqual(event);
    const headers = got.headers as Record<string, string>;
    expect(new Webhook(secret).verify(got.body, headers)).toEqual(event);
    expect(verifyWebhook(secret, headers, got.body)).toEqual(event);
    // Signed with this endpoint's secret only: another secret does not verify.
    const other = await endpoint('http://127.0.0.1:9/other');
    expect(() => new Webhook(other.secret).verify(got.body, headers)).toThrow();
    await api.delete(`/v1/webhook_endpoints/${other.id}`);
    await api.delete(`/v1/webhook_endpoints/${id}`);
  });

  it('go only to endpoints that take the type', async () => {
    const r = await receiver();
    const { id } = await endpoint(r.url, ['deal.won']);
    const deal = (await api.post('/v1/deals', { title: 'Filtered', value: 5, currency: 'EUR', stage: 'proposal' })).body;
    await api.post(`/v1/deals/${deal.id}/win`);
    const wonId = await eventOf('deal.won', deal.id);
    await r.waitFor('deal.won', () => r.successes(wonId) === 1);
    const rows = await deliveries(id);
    expect(rows.map((d) => d.event_type)).toEqual(['deal.won']);
    expect(r.received.map((x) => JSON.parse(x.body).type)).toEqual(['deal.won']);
    await api.delete(`/v1/webhook_endpoints/${id}`);
  });

  it('are retried until the receiver recovers: same webhook-id and body each time, every attempt listed', async () => {
    const FAILURES = 3;
    const r = await receiver(({ seen }) => (seen < FAILURES ? 500 : 200));
    const { id } = await endpoint(r.url);
    const made = await lead('Flaky');
    const eventId = await eventOf('lead.created', made.id);
    await r.waitFor('the delivery to succeed', () => r.successes(eventId) === 1);

    const requests = r.received.filter((x) => x.id === eventId);
    expect(requests.map((x) => x.status)).toEqual([500, 500, 500, 200]);
    expect(new Set(requests.map((x) => x.body)).size).toBe(1);

    const attempts = await eventually('the success to be recorded', async () => {
      const rows = await deliveries(id, `&event_id=${eventId}`);
      return rows.at(-1)?.status === 'succeeded' ? rows : undefined;
    });
    expect(attempts.map((d) => [d.attempt, d.status, d.status_code])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'failed', 500],
      [4, 'succeeded', 200],
    ]);
    for (const failed of attempts.slice(0, 3)) {
      expect(failed.error).toContain('500');
      expect(failed.next_attempt_at).not.toBeNull();
      expect(Number.isInteger(failed.duration_ms)).toBe(true);
    }
    // Each retry is scheduled when the failure before it said: 5 s, 5 min, 30 min × 0.001.
    const gaps = attempts.slice(0, 3).map((d) => Date.parse(d.next_attempt_at) - Date.parse(d.attempted_at));
    expect(gaps.map((g, i) => g >= [5, 300, 1800][i]!)).toEqual([true, true, true]);
    expect(attempts[3]).toMatchObject({ next_attempt_at: null, error: null });
    await api.delete(`/v1/webhook_endpoints/${id}`);
  });

  it('wait at least as long as Retry-After asks, even with a compressed schedule', async () => {
    const r = await receiver(({ seen }) => (seen === 0 ? { status: 503, headers: { 'retry-after': '2' } } : 200));
    const { id } = await endpoint(r.url);
    const made = await lead('Busy');
    const eventId = await eventOf('lead.created', made.id);
    await r.waitFor('the retry', () => r.successes(eventId) === 1);
    // The receiver answers before the sandbox records the answer: wait for the record.
    const [first, second] = await eventually('the success to be recorded', async () => {
      const rows = await deliveries(id, `&event_id=${eventId}`);
      return rows.at(-1)?.status === 'succeeded' ? rows : undefined;
    });
    expect(first.status_code).toBe(503);
    expect(Date.parse(first.next_attempt_at) - Date.parse(first.attempted_at)).toBeGreaterThanOrEqual(2000);
    expect(Date.parse(second.attempted_at)).toBeGreaterThanOrEqual(Date.parse(first.next_attempt_at));
    await api.delete(`/v1/webhook_endpoints/${id}`);
  });

  it('stop at a 410, which disables the endpoint; recover re-queues once it is enabled again', async () => {
    let gone = true;
    const r = await receiver(() => (gone ? 410 : 200));
    const { id } = await endpoint(r.url);
    const first = await lead('Gone');
    const eventId = await eventOf('lead.created', first.id);
    const disabled = await eventually('the endpoint to be disabled', async () => {
      const e = (await api.get(`/v1/webhook_endpoints/${id}`)).body;
      return e.status === 'disabled' ? e : undefined;
    });
    expect(disabled.disabled_reason).toContain('410');
    const [attempt] = await deliveries(id);
    expect(attempt).toMatchObject({ status: 'failed', status_code: 410, next_attempt_at: null });

    // Disabled: new events get no delivery to it.
    await lead('While disabled');
    expect((await deliveries(id)).length).toBe(1);

    gone = false;
    await api.patch(`/v1/webhook_endpoints/${id}`, { status: 'enabled' });
    const since = new Date(Date.now() - 60_000).toISOString();
    const recovered = await api.post(`/v1/webhook_endpoints/${id}/recover`, { since });
    expect(recovered.status).toBe(202);
    expect(recovered.body).toEqual({ endpoint_id: id, requeued: 1 });
    await r.waitFor('the recovered delivery', () => r.successes(eventId) === 1);
    // Recovering again finds nothing: the delivery has succeeded since.
    expect((await api.post(`/v1/webhook_endpoints/${id}/recover`, { since })).body.requeued).toBe(0);
    await api.delete(`/v1/webhook_endpoints/${id}`);
  });

  it('are held while the endpoint is disabled, and go out when it is enabled again', async () => {
    // The first attempt fails and asks for 1 s; the endpoint is disabled before the retry is due.
    const r = await receiver(({ seen }) => (seen === 0 ? { status: 503, headers: { 'retry-after': '1' } } : 200));
    const { id } = await endpoint(r.url);
    const made = await lead('Held');
    const eventId = await eventOf('lead.created', made.id);
    await r.waitFor('the first attempt', () => r.received.some((x) => x.id === eventId));
    await api.patch(`/v1/webhook_endpoints/${id}`, { status: 'disabled' });
    const retry = await eventually('the retry to be scheduled', async () => (await deliveries(id)).find((d) => d.status === 'pending'));
    // Past its due time, the retry has not been sent: it waits for the endpoint.
    await new Promise((resolve) => setTimeout(resolve, Date.parse(retry.next_attempt_at) - Date.now() + 500));
    expect(r.received.filter((x) => x.id === eventId)).toHaveLength(1);
    expect((await deliveries(id)).find((d) => d.id === retry.id).status).toBe('pending');

    await api.patch(`/v1/webhook_endpoints/${id}`, { status: 'enabled' });
    await r.waitFor('the held delivery', () => r.successes(eventId) === 1);
    await api.delete(`/v1/webhook_endpoints/${id}`);
  });

  it('give up after 8 attempts; recover starts a new round', async () => {
    // A faster clock for this one: the whole 8-attempt schedule in about 3 s.
    const fast = await startApp({ webhookTimeScale: 0.00003 });
    try {
      const fastApi = apiClient(fast);
      let down = true;
      const r = await receiver(() => (down ? 500 : 200));
      const { id } = (await fastApi.post('/v1/webhook_endpoints', { url: r.url })).body;
      const made = (await fastApi.post('/v1/leads', { first_name: 'Doomed' })).body;
      const attempts = await eventually('8 failed attempts', async () => {
        const rows = (await fastApi.get(`/v1/webhook_endpoints/${id}/deliveries`)).body.data;
        return rows.length === 8 && rows[7].status === 'failed' ? rows : undefined;
      });
      expect(attempts.map((d: any) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(attempts[7].next_attempt_at).toBeNull();
      expect(attempts[7].error).toMatch(/Gave up after 8 attempts/);
      expect(r.received.length).toBe(8);

      down = false;
      const recovered = await fastApi.post(`/v1/webhook_endpoints/${id}/recover`, { since: new Date(Date.now() - 3_600_000).toISOString() });
      expect(recovered.body.requeued).toBe(1);
      const eventId = JSON.parse(r.received[0]!.body).id;
      expect(JSON.parse(r.received[0]!.body).data.object.id).toBe(made.id);
      await r.waitFor('the recovered delivery', () => r.successes(eventId) === 1);
      // The receiver answers before the sandbox records the answer: wait for the record.
      const after = await eventually('the recovered delivery to be recorded', async () => {
        const rows = (await fastApi.get(`/v1/webhook_endpoints/${id}/deliveries`)).body.data;
        return rows.at(-1).attempt === 1 && rows.at(-1).status !== 'pending' ? rows : undefined;
      });
      expect(after.at(-1)).toMatchObject({ attempt: 1, status: 'succeeded' });
    } finally {
      await fast.stop();
    }
  });

  it('carry two signatures for 24 h after a rotation: the new secret and the old one both verify', async () => {
    const r = await receiver();
    const { id, secret: oldSecret } = await endpoint(r.url);
    const rotated = await api.post(`/v1/webhook_endpoints/${id}/rotate_secret`);
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    const overlap = Date.parse(rotated.body.previous_secret_expires_at) - Date.now();
    expect(overlap).toBeGreaterThan(23 * 3_600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3_600_000);

    const made = await lead('Rotated');
    const eventId = await eventOf('lead.created', made.id);
    await r.waitFor('the delivery', () => r.successes(eventId) === 1);
    const got = r.received.find((x) => x.id === eventId)!;
    const headers = got.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [newSecret, oldSecret]) {
      expect(new Webhook(secret).verify(got.body, headers)).toMatchObject({ id: eventId });
      expect(verifyWebhook(secret, headers, got.body)).toMatchObject({ id: eventId });
    }
    await api.delete(`/v1/webhook_endpoints/${id}`);
  });

  it('stop signing with the old secret at once on a rotation with expire_old (a leaked secret)', async () => {
    const r = await receiver();
    const { id, secret: first } = await endpoint(r.url);
    // The first rotation leaves `first` signing for 24 h; the second, with expire_old, ends that too.
    const second = (await api.post(`/v1/webhook_endpoints/${id}/rotate_secret`)).body.secret as string;
    const rotated = await api.post(`/v1/webhook_endpoints/${id}/rotate_secret`, { expire_old: true });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.previous_secret_expires_at).toBeNull();
    const third = rotated.body.secret as string;

    const made = await lead('Expired');
    const eventId = await eventOf('lead.created', made.id);
    await r.waitFor('the delivery', () => r.successes(eventId) === 1);
    const got = r.received.find((x) => x.id === eventId)!;
    const headers = got.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(new Webhook(third).verify(got.body, headers)).toMatchObject({ id: eventId });
    for (const old of [first, second]) expect(() => new Webhook(old).verify(got.body, headers)).toThrow();
    expect((await api.post(`/v1/webhook_endpoints/${id}/rotate_secret`, { expire_old: 'yes' })).status).toBe(422);
    await api.delete(`/v1/webhook_endpoints/${id}`);
  });
});

describe('POST /v1/events/{id}/resend', () => {
  it('delivers an event again with the same webhook-id, to one endpoint or to all that take it', async () => {
    const r1 = await receiver();
    const r2 = await receiver();
    const e1 = await endpoint(r1.url);
    const e2 = await endpoint(r2.url, ['lead.created']);
    const made = await lead('Again');
    const eventId = await eventOf('lead.created', made.id);
    await r1.waitFor('first deliveries', () => r1.successes(eventId) === 1 && r2.successes(eventId) === 1);

    const one = await api.post(`/v1/events/${eventId}/resend`, { endpoint_id: e1.id });
    expect(one.status).toBe(202);
    expect(one.body.deliveries.map((d: any) => [d.endpoint_id, d.attempt, d.status])).toEqual([[e1.id, 1, 'pending']]);
    await r1.waitFor('the resend', () => r1.successes(eventId) === 2);
    expect(r2.successes(eventId)).toBe(1);

    const all = await api.post(`/v1/events/${eventId}/resend`, {});
    expect(all.body.deliveries.map((d: any) => d.endpoint_id).sort()).toEqual([e1.id, e2.id].sort());
    await r2.waitFor('the resend to all', () => r1.successes(eventId) === 3 && r2.successes(eventId) === 2);

    await api.patch(`/v1/webhook_endpoints/${e2.id}`, { status: 'disabled' });
    const refused = await api.post(`/v1/events/${eventId}/resend`, { endpoint_id: e2.id });
    expect(refused.status).toBe(409);
    expect((await api.post('/v1/events/evt_01NOPE/resend', {})).status).toBe(404);
    expect((await api.post(`/v1/events/${eventId}/resend`, { endpoint_id: 'we_nope' })).status).toBe(404);
    await api.delete(`/v1/webhook_endpoints/${e1.id}`);
    await api.delete(`/v1/webhook_endpoints/${e2.id}`);
  });
});
