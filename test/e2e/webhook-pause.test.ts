import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { apiClient, type ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { dbValue } from '../helpers/sync.js';

/**
 * POST /_sandbox/webhook_pause (docs/sandbox.md): while paused, events are recorded and get no
 * delivery, not even after the pause; a pause is a lease that ends by itself; only the sandbox
 * admin key may pause. What `crm sync copy` relies on to fill a sandbox without a webhook storm.
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({}, (s, a) => ((sandbox = s), (api = a)));
const receivers: Receiver[] = [];
afterAll(async () => Promise.all(receivers.map((r) => r.close())));

async function lead(name: string): Promise<string> {
  const res = await api.post('/v1/leads', { first_name: name });
  expect(res.status).toBe(201);
  return dbValue<string>(sandbox.db, "SELECT id FROM events WHERE type = 'lead.created' AND object_id = ?", res.body.id);
}
const deliveries = (eventId: string) => dbValue(sandbox.db, 'SELECT COUNT(*) FROM webhook_deliveries WHERE event_id = ?', eventId);

describe('pausing webhook deliveries', () => {
  it('events while paused are recorded and never delivered; after DELETE they are delivered again', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    expect((await api.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['lead.created'] })).status).toBe(201);
    expect((await api.get('/_sandbox/webhook_pause')).body).toEqual({ paused_until: null });

    const before = Date.now();
    const paused = await api.post('/_sandbox/webhook_pause', { seconds: 60 });
    expect(paused.status).toBe(200);
    const until = Date.parse(paused.body.paused_until);
    expect(until).toBeGreaterThanOrEqual(before + 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 60_000);
    expect((await api.get('/_sandbox/webhook_pause')).body).toEqual(paused.body);

    const quiet = await lead('Quiet');
    expect(quiet).toMatch(/^evt_/);
    expect(deliveries(quiet)).toBe(0);

    expect((await api.delete('/_sandbox/webhook_pause')).body).toEqual({ paused_until: null });
    const heard = await lead('Heard');
    expect(deliveries(heard)).toBe(1);
    await receiver.waitFor('the delivery after the pause', () => receiver.received.some((r) => r.body.includes(heard)));
    expect(receiver.received.some((r) => r.body.includes(quiet))).toBe(false);
    expect(deliveries(quiet)).toBe(0); // resuming does not replay the pause
  });

  it('a pause is a lease: it ends by itself', async () => {
    expect((await api.post('/_sandbox/webhook_pause', { seconds: 1 })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await api.get('/_sandbox/webhook_pause')).body).toEqual({ paused_until: null });
    expect(deliveries(await lead('After the lease'))).toBe(1);
  });

  it('refuses a length outside 1 s..1 day, and a key that is not the admin key', async () => {
    for (const seconds of [0, 86_401, 1.5]) expect((await api.post('/_sandbox/webhook_pause', { seconds })).status).toBe(422);
    const narrow = await api.post('/v1/api_keys', { name: 'reader', scopes: ['leads:read'] });
    expect(narrow.status).toBe(201);
    const other = apiClient({ baseUrl: sandbox.baseUrl, apiKey: narrow.body.secret });
    const refused = await other.post('/_sandbox/webhook_pause', { seconds: 60 });
    expect(refused.status).toBe(403);
    expect((await api.get('/_sandbox/webhook_pause')).body).toEqual({ paused_until: null });
  });
});
