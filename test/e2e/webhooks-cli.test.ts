import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';
import { eventually, startReceiver, type Receiver } from '../helpers/receiver.js';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

let sandbox: RunningApp;
let api: ApiClient;
let receiver: Receiver;
let up = false;

useApp({ webhookTimeScale: 0.00003 }, (started, client) => {
  sandbox = started;
  api = client;
});
beforeAll(async () => {
  receiver = await startReceiver(() => (up ? 200 : 500));
});
afterAll(async () => {
  await receiver?.close();
});

const crm = async (...args: string[]) => {
  const result = await runCrm([...args, '--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey]);
  expect(result.code, `crm ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout;
};
const json = async (...args: string[]) => JSON.parse(await crm(...args, '--json'));

describe('crm webhooks and crm events', () => {
  it('manage an endpoint, show its deliveries, and recover failed ones', async () => {
    const created = await json('webhooks', 'create', '--url', receiver.url, '--events', 'lead.created,lead.deleted', '--description', 'from the CLI');
    expect(created).toMatchObject({ url: receiver.url, enabled_events: ['lead.created', 'lead.deleted'], description: 'from the CLI' });
    expect(created.secret).toMatch(/^whsec_/);
    const human = await crm('webhooks', 'list');
    expect(human).toContain(created.id);
    expect(human).not.toContain(created.secret);

    // The receiver is down: the delivery fails 8 times (a compressed schedule), then is `failed`.
    const lead = (await api.post('/v1/leads', { first_name: 'CLI' })).body;
    await eventually('8 failed attempts', async () => {
      const rows = (await api.get(`/v1/webhook_endpoints/${created.id}/deliveries?status=failed`)).body.data;
      return rows.length === 8;
    });
    const failed: any[] = (await json('webhooks', 'deliveries', created.id, '--status', 'failed')).data;
    expect(failed.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(failed.every((d) => d.status_code === 500)).toBe(true);
    const table = await crm('webhooks', 'deliveries', created.id, '--limit', '2');
    expect(table).toMatch(/ATTEMPT\s+STATUS\s+CODE/);
    expect(table.trim().split('\n')).toHaveLength(3);

    up = true;
    const recovered = await json('webhooks', 'recover', created.id, '--since', '1h');
    expect(recovered).toEqual({ endpoint_id: created.id, requeued: 1 });
    const eventId = failed[0].event_id;
    await receiver.waitFor('the recovered delivery', () => receiver.successes(eventId) === 1);
    expect(JSON.parse(receiver.received.at(-1)!.body).data.object.id).toBe(lead.id);

    const updated = await json('webhooks', 'update', created.id, '--disable', '--events', '*');
    expect(updated).toMatchObject({ status: 'disabled', enabled_events: ['*'] });
    const rotated = await json('webhooks', 'rotate-secret', created.id);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previous_secret_expires_at).toEqual(expect.any(String));
    const expired = await json('webhooks', 'rotate-secret', created.id, '--expire-old');
    expect(expired.secret).not.toBe(rotated.secret);
    expect(expired.previous_secret_expires_at).toBeNull();
    expect(await json('webhooks', 'delete', created.id)).toEqual({ id: created.id, deleted: true });
    expect((await api.get(`/v1/webhook_endpoints/${created.id}`)).status).toBe(404);
  });

  it('list and get events, and resend to the endpoints', async () => {
    const endpoint = await json('webhooks', 'create', '--url', receiver.url, '--events', 'deal.won');
    const deal = (await api.post('/v1/deals', { title: 'CLI deal', value: 3, currency: 'EUR', stage: 'proposal' })).body;
    await api.post(`/v1/deals/${deal.id}/win`);
    const listed = await json('events', 'list', '--type', 'deal.won', '--since', '10m');
    const won = listed.data.find((e: any) => e.data.object.id === deal.id);
    expect(won).toBeDefined();
    expect(listed.data.every((e: any) => e.type === 'deal.won')).toBe(true);
    expect(await json('events', 'get', won.id)).toEqual(won);
    expect(await crm('events', 'list', '--since', '10m')).toMatch(new RegExp(`${won.id}\\s+deal\\.won\\s+${deal.id}`));

    await receiver.waitFor('the deal.won delivery', () => receiver.successes(won.id) === 1);
    const resent = await json('events', 'resend', won.id, '--endpoint', endpoint.id);
    expect(resent.deliveries).toHaveLength(1);
    await receiver.waitFor('the resend', () => receiver.successes(won.id) === 2);
    const replayed = await json('events', 'replay', '--since', '10m', '--type', 'deal.won');
    expect(replayed.deliveries_queued).toBeGreaterThanOrEqual(1);
    await receiver.waitFor('the replay', () => receiver.successes(won.id) === 3);
  });

  it('give clear usage errors', async () => {
    const bad = await runCrm(['events', 'replay', '--since', 'yesterday-ish', '--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/duration|RFC 3339/);
  });
});
