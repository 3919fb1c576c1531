import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crm, PlanLimitError } from '../src/index.js';
import { startSandbox, unique, type Sandbox } from './sandbox.js';

/** Every resource and action of docs/sdk-surface.md#resources-and-methods through the TypeScript SDK, against a live sandbox. */
let sandbox: Sandbox;
let crm: Crm;
beforeAll(async () => {
  sandbox = await startSandbox(['--no-seed']);
  crm = new Crm({ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl });
});
afterAll(() => sandbox?.stop());

describe('resources', () => {
  it('leads: create, retrieve, update, list, convert, delete, bulk', async () => {
    const email = `${unique('ada')}@example.com`;
    const lead = await crm.leads.create({ first_name: 'Ada', email, tags: ['vip'] });
    expect(lead).toMatchObject({ first_name: 'Ada', email, status: 'new', tags: ['vip'] });
    expect(lead.id).toMatch(/^lead_/);
    expect(lead.lastResponse.status).toBe(201);
    expect(lead.lastResponse.requestId).toMatch(/^req_/);
    expect(JSON.stringify(lead)).not.toContain('lastResponse');
    expect((await crm.leads.retrieve(lead.id)).email).toBe(email);
    expect((await crm.leads.update(lead.id, { status: 'qualified' })).status).toBe('qualified');
    const page = await crm.leads.list({ email });
    expect(page.data.map((l) => l.id)).toEqual([lead.id]);
    expect(page.has_more).toBe(false);

    const company = await crm.leads.create({ company: 'Babbage Ltd', email: `${unique('c')}@example.com` });
    const converted = await crm.leads.convert(company.id, { deal: { title: 'Engine', value: 100, currency: 'EUR' } });
    expect(converted.lead.status).toBe('converted');
    expect(converted.client.name).toBe('Babbage Ltd');
    expect(converted.deal?.title).toBe('Engine');

    expect(await crm.leads.delete(lead.id)).toEqual({ id: lead.id, deleted: true });
    const bulk = await crm.leads.bulk({
      mode: 'upsert',
      match_on: 'email',
      records: [
        { first_name: 'B1', email: `${unique('b')}@example.com` },
        { first_name: 'B2', email: 'not-an-email' },
      ],
    });
    expect(bulk.summary).toEqual({ created: 1, updated: 0, unchanged: 0, failed: 1 });
  });

  it('clients and their contact persons', async () => {
    const client = await crm.clients.create({
      name: 'Lovelace & Co',
      kind: 'company',
      email: `${unique('info')}@example.com`,
      address: { city: 'London', country: 'GB' },
    });
    expect(client.address?.city).toBe('London');
    const contact = await crm.clients.contacts.create(client.id, { first_name: 'Charles', role: 'CTO' });
    expect((await crm.clients.contacts.retrieve(client.id, contact.id)).role).toBe('CTO');
    expect((await crm.clients.contacts.update(client.id, contact.id, { role: 'CEO' })).role).toBe('CEO');
    const contacts = [];
    for await (const c of crm.clients.contacts.list(client.id)) contacts.push(c.id);
    expect(contacts).toEqual([contact.id]);
    expect((await crm.clients.contacts.delete(client.id, contact.id)).deleted).toBe(true);
    expect((await crm.clients.update(client.id, { website: 'https://lovelace.example' })).website).toBe('https://lovelace.example');
    expect((await crm.clients.retrieve(client.id)).name).toBe('Lovelace & Co');
    expect((await crm.clients.delete(client.id)).deleted).toBe(true);
  });

  it('deals: win, lose, reopen; pipelines', async () => {
    const deal = await crm.deals.create({ title: 'Difference Engine', value: 5000, currency: 'GBP', stage: 'qualified' });
    expect((await crm.deals.win(deal.id)).stage).toBe('won');
    expect((await crm.deals.reopen(deal.id, { stage: 'proposal' })).stage).toBe('proposal');
    const lost = await crm.deals.lose(deal.id, { reason: 'budget' });
    expect(lost).toMatchObject({ stage: 'lost', lost_reason: 'budget' });
    expect((await crm.deals.update(deal.id, { title: 'Analytical Engine' })).title).toBe('Analytical Engine');
    const tag = unique('summary');
    await crm.deals.bulk({
      mode: 'create',
      records: [0.1, 0.2].map((value) => ({ title: `S${value}`, value, currency: 'EUR', stage: 'qualified', tags: [tag] })),
    });
    const summary = await crm.deals.summarize({ tag });
    expect(summary.count).toBe(2);
    expect(summary.stages.find((s) => s.stage === 'qualified')).toEqual({ stage: 'qualified', count: 2, totals: [{ currency: 'EUR', count: 2, value: 0.3 }] });
    const pipelines = await crm.pipelines.list();
    expect(pipelines.data[0]?.stages.map((s) => s.id)).toContain('won');
    expect((await crm.deals.delete(deal.id)).deleted).toBe(true);
  });

  it('invoices: create, update, send, pay, void', async () => {
    const client = await crm.clients.create({ name: 'Invoice Co', email: `${unique('billing')}@example.com` });
    const draft = await crm.invoices.create({
      client_id: client.id,
      currency: 'EUR',
      send: false,
      line_items: [{ description: 'Gears', quantity: 3, unit_price: 19.99 }],
    });
    expect(draft).toMatchObject({ status: 'draft', total: 59.97 });
    expect((await crm.invoices.update(draft.id, { due_date: '2030-01-31' })).due_date).toBe('2030-01-31');
    const sent = await crm.invoices.send(draft.id);
    expect(sent.status).toBe('open');
    expect(sent.payment_link).toMatch(/\/pay\//);
    expect((await crm.invoices.pay(draft.id)).status).toBe('paid');
    const other = await crm.invoices.create({ client_id: client.id, send: false, line_items: [{ description: 'Cogs', quantity: 1, unit_price: 5 }] });
    expect((await crm.invoices.void(other.id)).status).toBe('void');
    expect((await crm.invoices.retrieve(other.id)).status).toBe('void');
  });

  it('webhook endpoints, events, API keys, OAuth apps, usage', async () => {
    const endpoint = await crm.webhookEndpoints.create({ url: 'http://127.0.0.1:9/hooks', enabled_events: ['lead.created'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(await crm.webhookEndpoints.retrieve(endpoint.id)).not.toHaveProperty('secret');
    expect((await crm.webhookEndpoints.update(endpoint.id, { description: 'test' })).description).toBe('test');
    const rotated = await crm.webhookEndpoints.rotateSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect((await crm.webhookEndpoints.rotateSecret(endpoint.id, { expire_old: true })).previous_secret_expires_at).toBeNull();
    await crm.leads.create({ first_name: 'Evented' });
    const events = await crm.events.list({ type: 'lead.created' });
    const event = events.data.at(-1)!;
    expect((await crm.events.retrieve(event.id)).type).toBe('lead.created');
    expect((await crm.events.resend(event.id, { endpoint_id: endpoint.id })).lastResponse.status).toBe(202);
    expect((await crm.webhookEndpoints.recover(endpoint.id, { since: '2020-01-01T00:00:00Z' })).lastResponse.status).toBe(202);
    const deliveries = await crm.webhookEndpoints.listDeliveries(endpoint.id);
    expect(Array.isArray(deliveries.data)).toBe(true);
    expect((await crm.webhookEndpoints.delete(endpoint.id)).deleted).toBe(true);

    const key = await crm.apiKeys.create({ name: 'reader', scopes: ['leads:read'] });
    expect(key.secret).toMatch(/^crm_test_/);
    expect((await crm.apiKeys.retrieve(key.id)).scopes).toEqual(['leads:read']);
    expect((await crm.apiKeys.list()).data.map((k) => k.id)).toContain(key.id);
    expect((await crm.apiKeys.delete(key.id)).revoked_at).toBeTruthy();
    const app = await crm.oauthApps.create({ name: 'TS app', redirect_uris: ['http://localhost/cb'], scopes: ['leads:read'] });
    expect(app.client_secret).toBeTruthy();
    expect((await crm.oauthApps.list()).data.map((a) => a.id)).toContain(app.id);
    const usage = await crm.usage.retrieve();
    expect(usage.by_endpoint.length).toBeGreaterThan(0);
  });

  it('rawRequest reaches any endpoint', async () => {
    const health = await crm.rawRequest<{ status: string }>('GET', '/healthz');
    expect(health.status).toBe('ok');
    expect(health.lastResponse.status).toBe(200);
  });
});

describe('account', () => {
  it('retrieves the key’s account; a free account’s bulk over its limit is a PlanLimitError; startTrial lifts it', async () => {
    expect((await crm.account.retrieve()).plan).toBe('pro');
    // A free account, made with the sandbox admin key (the SDK covers /v1 only).
    const made = await fetch(`${sandbox.baseUrl}/_sandbox/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'sdk free', seed: null }),
    });
    const { api_key: apiKey } = (await made.json()) as { api_key: string };
    const free = new Crm({ apiKey, baseUrl: sandbox.baseUrl });
    const account = await free.account.retrieve();
    expect(account).toMatchObject({ plan: 'free', limits: { bulk_records: 100 } });
    const records = Array.from({ length: 101 }, (_, i) => ({ first_name: `P${i}` }));
    const refused = await free.leads.bulk({ mode: 'create', records }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PlanLimitError);
    expect((refused as PlanLimitError).status).toBe(402);
    expect((refused as PlanLimitError).code).toBe('plan_limit');
    expect((await free.account.startTrial()).plan).toBe('trial');
    expect((await free.leads.bulk({ mode: 'create', records })).summary.created).toBe(101);
  });
});
