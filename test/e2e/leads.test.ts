import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp } from '../helpers/app.js';

let api: ApiClient;

// No rate limit: these tests send bursts, and rate limiting has its own tests.
useApp({ rateLimit: '0' }, (_s, a) => {
  api = a;
});

/** Lets the clock move on, so that a changed updated_at is visible and an unchanged one means something. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

async function createLead(body: Record<string, unknown>) {
  const res = await api.post('/v1/leads', body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function listIds(query: string): Promise<string[]> {
  const res = await api.get(`/v1/leads?limit=1000&${query}`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.next_cursor).toBeNull();
  return res.body.data.map((l: { id: string }) => l.id);
}

function expectProblem(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body.code).toBe(code);
}

describe('create and get', () => {
  it('creates a lead with defaults and returns it from GET', async () => {
    const lead = await createLead({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', source: 'web', tags: ['vip'] });
    expect(lead.id).toMatch(/^lead_/);
    expect(lead).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', source: 'web', status: 'new' });
    expect(lead).toMatchObject({ phone: null, company: null, external_id: null, converted_client_id: null, tags: ['vip'], custom_fields: {} });
    expect(lead.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(lead.updated_at).toBe(lead.created_at);
    const got = await api.get(`/v1/leads/${lead.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(lead);
  });

  it('accepts any one naming field alone', async () => {
    for (const body of [{ first_name: 'A' }, { last_name: 'B' }, { email: 'c@example.com' }, { company: 'D GmbH' }]) {
      expect((await api.post('/v1/leads', body)).status).toBe(201);
    }
  });

  it('refuses a lead without first_name, last_name, email or company (422)', async () => {
    expectProblem(await api.post('/v1/leads', { phone: '+49 30 1234', title: 'CEO' }), 422, 'validation_failed');
    expectProblem(await api.post('/v1/leads', {}), 422, 'validation_failed');
  });

  it('refuses an invalid email and unknown fields (422)', async () => {
    const bad = await api.post('/v1/leads', { email: 'not-an-email' });
    expectProblem(bad, 422, 'validation_failed');
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toContain('email');
    const typo = await api.post('/v1/leads', { first_name: 'X', frist_name: 'Y' });
    expectProblem(typo, 422, 'validation_failed');
    expect(typo.body.errors.map((e: { path: string }) => e.path)).toContain('frist_name');
  });

  it('answers 404 not_found for an unknown id', async () => {
    expectProblem(await api.get('/v1/leads/lead_00000000000000000000000000'), 404, 'not_found');
  });
});

describe('update and delete', () => {
  it('PATCH changes only the fields sent', async () => {
    const lead = await createLead({ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', phone: '+1 555 0100', company: 'Navy', notes: 'n' });
    await tick();
    const res = await api.patch(`/v1/leads/${lead.id}`, { title: 'Rear Admiral', status: 'contacted' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...lead, title: 'Rear Admiral', status: 'contacted', updated_at: res.body.updated_at });
    expect(res.body.updated_at > lead.updated_at).toBe(true);
    expect((await api.get(`/v1/leads/${lead.id}`)).body).toEqual(res.body);
  });

  it('PATCH with null clears a field, but not the last naming field', async () => {
    const lead = await createLead({ company: 'Solo AG', phone: '123' });
    expect((await api.patch(`/v1/leads/${lead.id}`, { phone: null })).body.phone).toBeNull();
    expectProblem(await api.patch(`/v1/leads/${lead.id}`, { company: null }), 422, 'validation_failed');
    expect((await api.get(`/v1/leads/${lead.id}`)).body.company).toBe('Solo AG');
  });

  it('a PATCH that changes nothing keeps updated_at', async () => {
    const lead = await createLead({ first_name: 'Same', email: 'same@example.com', tags: ['a'] });
    await tick();
    const res = await api.patch(`/v1/leads/${lead.id}`, { first_name: 'Same', email: 'same@example.com', tags: ['a'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(lead);
    expect((await api.get(`/v1/leads/${lead.id}`)).body.updated_at).toBe(lead.updated_at);
  });

  it('DELETE answers {id, deleted: true}, then the lead is gone', async () => {
    const lead = await createLead({ first_name: 'Temp' });
    const res = await api.delete(`/v1/leads/${lead.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: lead.id, deleted: true });
    expectProblem(await api.get(`/v1/leads/${lead.id}`), 404, 'not_found');
    expectProblem(await api.delete(`/v1/leads/${lead.id}`), 404, 'not_found');
    expectProblem(await api.patch(`/v1/leads/${lead.id}`, { first_name: 'Back' }), 404, 'not_found');
  });

  it('external_id is unique: a second lead with it is 409 conflict, on create and on PATCH', async () => {
    const first = await createLead({ first_name: 'One', external_id: 'ext-lead-1' });
    expectProblem(await api.post('/v1/leads', { first_name: 'Two', external_id: 'ext-lead-1' }), 409, 'conflict');
    const other = await createLead({ first_name: 'Three' });
    expectProblem(await api.patch(`/v1/leads/${other.id}`, { external_id: 'ext-lead-1' }), 409, 'conflict');
    expect((await api.patch(`/v1/leads/${first.id}`, { external_id: 'ext-lead-1', last_name: 'Own' })).status).toBe(200);
    expect(await listIds('external_id=ext-lead-1')).toEqual([first.id]);
  });
});

describe('list filters and sort', () => {
  const tag = 'filter-set';
  let leads: any[] = [];

  beforeAll(async () => {
    const bodies = [
      { first_name: 'F1', email: 'Mixed.Case@Example.com', status: 'new', source: 'web', external_id: 'filter-ext-1' },
      { first_name: 'F2', email: 'f2@example.com', status: 'contacted', source: 'referral' },
      { first_name: 'F3', email: 'f3@example.com', status: 'contacted', source: 'web' },
      { first_name: 'F4', status: 'qualified', source: 'event' },
    ];
    leads = [];
    for (const body of bodies) {
      leads.push(await createLead({ ...body, tags: [tag, body.first_name] }));
      await tick();
    }
  });

  it('tag filter returns exactly the tagged leads, in creation order', async () => {
    expect(await listIds(`tag=${tag}`)).toEqual(leads.map((l) => l.id));
    expect(await listIds('tag=F3')).toEqual([leads[2].id]);
    expect(await listIds('tag=no-such-tag')).toEqual([]);
  });

  it('filters by status and by source', async () => {
    expect(await listIds(`tag=${tag}&status=contacted`)).toEqual([leads[1].id, leads[2].id]);
    expect(await listIds(`tag=${tag}&source=web`)).toEqual([leads[0].id, leads[2].id]);
    expect(await listIds(`tag=${tag}&status=contacted&source=web`)).toEqual([leads[2].id]);
    expectProblem(await api.get('/v1/leads?status=bogus'), 400, 'invalid_request');
  });

  it('filters by email case-insensitively, and by external_id', async () => {
    expect(await listIds(`email=${encodeURIComponent('mixed.case@EXAMPLE.COM')}`)).toEqual([leads[0].id]);
    expect(await listIds(`email=${encodeURIComponent('Mixed.Case@Example.com')}`)).toEqual([leads[0].id]);
    expect(await listIds('external_id=filter-ext-1')).toEqual([leads[0].id]);
    expect(await listIds('external_id=FILTER-EXT-1')).toEqual([]);
  });

  it('filters by created_after (strictly after)', async () => {
    expect(await listIds(`tag=${tag}&created_after=${encodeURIComponent(leads[1].created_at)}`)).toEqual([leads[2].id, leads[3].id]);
    expectProblem(await api.get('/v1/leads?created_after=yesterday'), 400, 'invalid_request');
  });

  it('filters by updated_after and sorts by updated_at', async () => {
    const since = leads[3].updated_at;
    await tick();
    const patched = await api.patch(`/v1/leads/${leads[0].id}`, { notes: 'touched' });
    expect(patched.status).toBe(200);
    expect(await listIds(`tag=${tag}&updated_after=${encodeURIComponent(since)}`)).toEqual([leads[0].id]);
    expect(await listIds(`tag=${tag}`)).toEqual(leads.map((l) => l.id));
    expect(await listIds(`tag=${tag}&sort=updated_at`)).toEqual([leads[1].id, leads[2].id, leads[3].id, leads[0].id]);
  });
});

describe('conversion', () => {
  const full = {
    first_name: 'Linus',
    last_name: 'Berg',
    email: 'linus@bergtech.example',
    phone: '+46 8 123',
    company: 'Bergtech AB',
    title: 'CTO',
    tags: ['nordic'],
  };

  it('converts a company lead into a company client with the lead as primary contact', async () => {
    const lead = await createLead(full);
    const res = await api.post(`/v1/leads/${lead.id}/convert`, {});
    expect(res.status, res.text).toBe(201);
    const { client, deal } = res.body;
    expect(deal).toBeNull();
    expect(client).toMatchObject({ name: 'Bergtech AB', kind: 'company', email: null, phone: null, tags: ['nordic'] });
    expect(client.contacts).toHaveLength(1);
    expect(client.contacts[0]).toMatchObject({
      client_id: client.id,
      first_name: 'Linus',
      last_name: 'Berg',
      email: full.email,
      role: 'CTO',
      is_primary: true,
    });
    expect(res.body.lead).toMatchObject({ id: lead.id, status: 'converted', converted_client_id: client.id });
    expect((await api.get(`/v1/clients/${client.id}`)).body).toEqual(client);
    expect((await api.get(`/v1/leads/${lead.id}`)).body).toEqual(res.body.lead);
  });

  it('converts a person lead into a person client without contacts', async () => {
    const lead = await createLead({ first_name: 'Maria', last_name: 'Rossi', email: 'maria@example.com' });
    const res = await api.post(`/v1/leads/${lead.id}/convert`);
    expect(res.status, res.text).toBe(201);
    expect(res.body.client).toMatchObject({ name: 'Maria Rossi', kind: 'person', email: 'maria@example.com', contacts: [] });
  });

  it('with `deal` in the body also creates a deal linked to the new client', async () => {
    const lead = await createLead({ ...full, email: 'linus2@bergtech.example' });
    const res = await api.post(`/v1/leads/${lead.id}/convert`, { deal: { title: 'Pilot', value: 1234.5, currency: 'EUR' } });
    expect(res.status, res.text).toBe(201);
    const { client, deal } = res.body;
    expect(deal).toMatchObject({ title: 'Pilot', value: 1234.5, currency: 'EUR', client_id: client.id });
    expect((await api.get(`/v1/deals/${deal.id}`)).body).toEqual(deal);
  });

  it('converting twice is 409 invalid_transition and creates nothing', async () => {
    const lead = await createLead({ ...full, email: 'linus3@bergtech.example' });
    expect((await api.post(`/v1/leads/${lead.id}/convert`, {})).status).toBe(201);
    const clientsBefore = (await api.get('/v1/clients?limit=1000')).body.data.length;
    expectProblem(await api.post(`/v1/leads/${lead.id}/convert`, { deal: { value: 1, currency: 'EUR' } }), 409, 'invalid_transition');
    expect((await api.get('/v1/clients?limit=1000')).body.data.length).toBe(clientsBefore);
  });

  it('status converted cannot be set by PATCH or create, and a converted lead keeps it', async () => {
    const lead = await createLead({ first_name: 'Patchy' });
    expectProblem(await api.patch(`/v1/leads/${lead.id}`, { status: 'converted' }), 409, 'invalid_transition');
    expect((await api.get(`/v1/leads/${lead.id}`)).body.status).toBe('new');
    expectProblem(await api.post('/v1/leads', { first_name: 'Born converted', status: 'converted' }), 409, 'invalid_transition');
    expect((await api.post(`/v1/leads/${lead.id}/convert`, {})).status).toBe(201);
    expectProblem(await api.patch(`/v1/leads/${lead.id}`, { status: 'new' }), 409, 'invalid_transition');
  });

  it('converting an unknown lead is 404', async () => {
    expectProblem(await api.post('/v1/leads/lead_00000000000000000000000000/convert', {}), 404, 'not_found');
  });
});

describe('email addresses', () => {
  it('take international domains, as exports from other CRMs hold them, and still need a domain with a dot', async () => {
    const lead = await createLead({ first_name: 'Anna', email: 'anna@münchen.example' });
    expect((await api.get(`/v1/leads/${lead.id}`)).body.email).toBe('anna@münchen.example');
    expect((await api.get(`/v1/leads?email=${encodeURIComponent('anna@münchen.example')}`)).body.data.map((l: { id: string }) => l.id)).toEqual([lead.id]);
    for (const email of ['anna@localhost', 'anna@', '@münchen.example', 'an na@x.example', 'anna@@x.example']) {
      const refused = await api.post('/v1/leads', { first_name: 'Anna', email });
      expect(refused.status, email).toBe(422);
      expect(refused.body.errors[0].path, email).toBe('email');
    }
  });
});
