import { describe, expect, it } from 'vitest';
import { useApp } from '../helpers/app.js';
import { aClient, aDeal, aLead, anApiKey, anInvoice, aWebhookEndpoint } from '../helpers/factories.js';
import type { ApiClient } from '../helpers/sandbox.js';

/** The test factories themselves: their defaults pass the API's validation, overrides win, a refusal says why. */
let api: ApiClient;
useApp({}, (_app, a) => (api = a));

describe('test factories', () => {
  it('make valid records with defaults, each of them new', async () => {
    const [a, b] = [await aLead(api), await aLead(api)];
    expect(a.id).not.toBe(b.id);
    expect(a.email).not.toBe(b.email);
    const deal = await aDeal(api);
    expect(deal).toMatchObject({ stage: 'lead_in', value: 1000, currency: 'EUR' });
    expect((await api.get(`/v1/clients/${deal.client_id}`)).status).toBe(200);
    const invoice = await anInvoice(api, { send: false });
    expect(invoice).toMatchObject({ status: 'draft', currency: 'EUR' });
    expect((await anApiKey(api, ['leads:read'])).secret).toMatch(/^crm_test_/);
    expect((await aWebhookEndpoint(api)).url).toBe('http://127.0.0.1:9/hook');
  });

  it('take what the test says over their defaults', async () => {
    const client = await aClient(api, { name: 'Chosen GmbH' });
    expect(client.name).toBe('Chosen GmbH');
    const deal = await aDeal(api, { client_id: client.id, stage: 'won', value: 5 });
    expect(deal).toMatchObject({ client_id: client.id, stage: 'won', value: 5 });
  });

  it('throw with the API’s problem when it refuses the record', async () => {
    await expect(aDeal(api, { currency: 'EUR', value: 0.001 })).rejects.toThrow(/POST \/v1\/deals answered 422: .*too_many_decimals/);
  });
});
