import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp } from '../helpers/app.js';

let api: ApiClient;

// No rate limit: these tests send bursts, and rate limiting has its own tests.
useApp({ rateLimit: '0' }, (_s, a) => {
  api = a;
});

async function createClient(body: Record<string, unknown>) {
  const res = await api.post('/v1/clients', body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

function expectProblem(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body.code).toBe(code);
}

const primaries = (client: { contacts: { id: string; is_primary: boolean }[] }) => client.contacts.filter((c) => c.is_primary).map((c) => c.id);

describe('clients with contact persons', () => {
  it('creates a client with contacts, returned with the client by POST, GET and list', async () => {
    const client = await createClient({
      name: 'Acme Rockets GmbH',
      email: 'hello@acme-rockets.example',
      contacts: [
        { first_name: 'Wile', last_name: 'Coyote', email: 'wile@acme-rockets.example', role: 'Buyer', is_primary: true },
        { first_name: 'Road', last_name: 'Runner' },
      ],
    });
    expect(client).toMatchObject({ id: expect.stringMatching(/^cli_/), kind: 'company', name: 'Acme Rockets GmbH' });
    expect(client.contacts).toHaveLength(2);
    expect(client.contacts[0]).toMatchObject({ id: expect.stringMatching(/^con_/), client_id: client.id, first_name: 'Wile', role: 'Buyer', is_primary: true });
    expect(client.contacts[1]).toMatchObject({ first_name: 'Road', email: null, is_primary: false });
    expect((await api.get(`/v1/clients/${client.id}`)).body).toEqual(client);
    const listed = (await api.get('/v1/clients?limit=1000')).body.data.find((c: { id: string }) => c.id === client.id);
    expect(listed).toEqual(client);
  });

  it('refuses two primary contacts in one create (422) and creates nothing', async () => {
    const res = await api.post('/v1/clients', {
      name: 'Two Heads Ltd',
      external_id: 'two-heads',
      contacts: [
        { first_name: 'A', is_primary: true },
        { first_name: 'B', is_primary: true },
      ],
    });
    expectProblem(res, 422, 'validation_failed');
    expect((await api.get('/v1/clients?external_id=two-heads')).body.data).toEqual([]);
  });

  it('making another contact primary demotes the old one (by POST and by PATCH)', async () => {
    const client = await createClient({ name: 'Primary Test AG', contacts: [{ first_name: 'Old', is_primary: true }] });
    const oldId = client.contacts[0].id;
    const added = await api.post(`/v1/clients/${client.id}/contacts`, { first_name: 'New', is_primary: true });
    expect(added.status, added.text).toBe(201);
    expect(primaries((await api.get(`/v1/clients/${client.id}`)).body)).toEqual([added.body.id]);
    const patched = await api.patch(`/v1/clients/${client.id}/contacts/${oldId}`, { is_primary: true });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.is_primary).toBe(true);
    expect(primaries((await api.get(`/v1/clients/${client.id}`)).body)).toEqual([oldId]);
  });

  it('supports contact CRUD under /v1/clients/{id}/contacts', async () => {
    const client = await createClient({ name: 'Contact CRUD Inc' });
    const base = `/v1/clients/${client.id}/contacts`;
    const created = await api.post(base, { first_name: 'Jane', last_name: 'Doe', email: 'jane@crud.example', phone: '+1 555' });
    expect(created.status, created.text).toBe(201);
    const contact = created.body;
    expect(contact).toMatchObject({ client_id: client.id, first_name: 'Jane', is_primary: false, role: null });
    expect((await api.get(`${base}/${contact.id}`)).body).toEqual(contact);
    expect((await api.get(base)).body).toEqual({ data: [contact], next_cursor: null });

    const patched = await api.patch(`${base}/${contact.id}`, { role: 'CFO' });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...contact, role: 'CFO', updated_at: patched.body.updated_at });
    expect((await api.get(`/v1/clients/${client.id}`)).body.contacts).toEqual([patched.body]);

    expectProblem(await api.post(base, { phone: '123' }), 422, 'validation_failed');
    expectProblem(await api.patch(`${base}/${contact.id}`, { first_name: null, last_name: null, email: null }), 422, 'validation_failed');

    const other = await createClient({ name: 'Other Co' });
    expectProblem(await api.get(`/v1/clients/${other.id}/contacts/${contact.id}`), 404, 'not_found');
    expectProblem(await api.post('/v1/clients/cli_00000000000000000000000000/contacts', { first_name: 'X' }), 404, 'not_found');

    const deleted = await api.delete(`${base}/${contact.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: contact.id, deleted: true });
    expectProblem(await api.get(`${base}/${contact.id}`), 404, 'not_found');
    expect((await api.get(`/v1/clients/${client.id}`)).body.contacts).toEqual([]);
  });
});

describe('client fields and deletion', () => {
  it('PATCH merges the address; address null clears it', async () => {
    const client = await createClient({ name: 'Address GmbH', address: { line1: 'Hauptstr. 1', city: 'Berlin', postal_code: '10115', country: 'DE' } });
    expect(client.address).toEqual({ line1: 'Hauptstr. 1', line2: null, city: 'Berlin', region: null, postal_code: '10115', country: 'DE' });
    const moved = await api.patch(`/v1/clients/${client.id}`, { address: { city: 'Hamburg', postal_code: null } });
    expect(moved.status).toBe(200);
    expect(moved.body.address).toEqual({ line1: 'Hauptstr. 1', line2: null, city: 'Hamburg', region: null, postal_code: null, country: 'DE' });
    expect(moved.body.name).toBe('Address GmbH');
    const cleared = await api.patch(`/v1/clients/${client.id}`, { address: null });
    expect(cleared.body.address).toEqual({ line1: null, line2: null, city: null, region: null, postal_code: null, country: null });
  });

  it('refuses a country that is not an ISO 3166-1 alpha-2 code (422)', async () => {
    for (const country of ['XX', 'de', 'DEU', 'Germany', 'UK', 'EU', 'UN']) {
      const res = await api.post('/v1/clients', { name: `Bad ${country}`, address: { country } });
      expectProblem(res, 422, 'validation_failed');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain('address.country');
    }
    const client = await createClient({ name: 'Good country', address: { country: 'GB' } });
    expectProblem(await api.patch(`/v1/clients/${client.id}`, { address: { country: 'ZZ' } }), 422, 'validation_failed');
    expect((await api.get(`/v1/clients/${client.id}`)).body.address.country).toBe('GB');
  });

  it('a client with invoices cannot be deleted (409 conflict)', async () => {
    const client = await createClient({ name: 'Billed Ltd', email: 'ap@billed.example' });
    const invoice = await api.post('/v1/invoices', { client_id: client.id, send: false, line_items: [{ description: 'Work', quantity: 1, unit_price: 100 }] });
    expect(invoice.status, invoice.text).toBe(201);
    expectProblem(await api.delete(`/v1/clients/${client.id}`), 409, 'conflict');
    expect((await api.get(`/v1/clients/${client.id}`)).status).toBe(200);
  });

  it('deleting a client without invoices deletes its contacts and unlinks its deals', async () => {
    const client = await createClient({ name: 'Gone Soon SA', contacts: [{ first_name: 'Leaving' }] });
    const deal = await api.post('/v1/deals', { title: 'Orphan deal', value: 500, currency: 'EUR', stage: 'proposal', client_id: client.id });
    expect(deal.status, deal.text).toBe(201);
    const res = await api.delete(`/v1/clients/${client.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: client.id, deleted: true });
    expectProblem(await api.get(`/v1/clients/${client.id}`), 404, 'not_found');
    expectProblem(await api.get(`/v1/clients/${client.id}/contacts`), 404, 'not_found');
    const after = await api.get(`/v1/deals/${deal.body.id}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ id: deal.body.id, client_id: null, title: 'Orphan deal' });
  });
});

describe('full-text search', () => {
  const found = async (q: string) => {
    const res = await api.get(`/v1/clients?limit=1000&q=${encodeURIComponent(q)}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as any[];
  };
  const foundIds = async (q: string) => (await found(q)).map((c) => c.id);
  let zephyr: any;
  let harbor: any;
  let baecker: any;

  beforeAll(async () => {
    zephyr = await createClient({ name: 'Zephyrion Logistics', email: 'desk@zephyrion.example', website: 'https://www.quokkafreight.example' });
    harbor = await createClient({
      name: 'Blue Harbor Ltd',
      contacts: [{ first_name: 'Ingrid', last_name: 'Vasquez', email: 'ingrid.vasquez@blueharbor.example', is_primary: true }],
    });
    baecker = await createClient({ name: 'Müller Bäckerei', email: 'info@baeckerei-mueller.example' });
  });

  it('finds a client by a word of its name, its email and its website', async () => {
    expect(await foundIds('Zephyrion')).toEqual([zephyr.id]);
    expect(await foundIds('logistics zephyrion')).toEqual([zephyr.id]);
    expect(await foundIds('desk@zephyrion.example')).toEqual([zephyr.id]);
    expect(await foundIds('quokkafreight')).toEqual([zephyr.id]);
    expect(await foundIds('zephyrion harbor')).toEqual([]);
  });

  it("finds a client by a contact person's name or email, and returns its contacts", async () => {
    expect(await foundIds('Vasquez')).toEqual([harbor.id]);
    expect(await foundIds('ingrid.vasquez@blueharbor.example')).toEqual([harbor.id]);
    const [hit] = await found('Ingrid');
    expect(hit.contacts).toEqual(harbor.contacts);
  });

  it('matches word prefixes, case-insensitively and ignoring diacritics', async () => {
    expect(await foundIds('zeph')).toEqual([zephyr.id]);
    expect(await foundIds('BLUEHARB')).toEqual([harbor.id]);
    expect(await foundIds('Müller')).toEqual([baecker.id]);
    expect(await foundIds('muller backerei')).toEqual([baecker.id]);
    expect(await foundIds('xylophone')).toEqual([]);
  });

  it('follows changes to names and contact persons', async () => {
    const client = await createClient({ name: 'Renamable Oy', contacts: [{ first_name: 'Tuomas', last_name: 'Korhonen' }] });
    expect((await api.patch(`/v1/clients/${client.id}`, { name: 'Transformed Oy' })).status).toBe(200);
    expect(await foundIds('Renamable')).toEqual([]);
    expect(await foundIds('Transformed')).toEqual([client.id]);
    const contactId = client.contacts[0].id;
    expect((await api.patch(`/v1/clients/${client.id}/contacts/${contactId}`, { last_name: 'Virtanen' })).status).toBe(200);
    expect(await foundIds('Korhonen')).toEqual([]);
    expect(await foundIds('Virtanen')).toEqual([client.id]);
    expect((await api.delete(`/v1/clients/${client.id}/contacts/${contactId}`)).status).toBe(200);
    expect(await foundIds('Tuomas')).toEqual([]);
    expect((await api.delete(`/v1/clients/${client.id}`)).status).toBe(200);
    expect(await foundIds('Transformed')).toEqual([]);
  });

  it('follows bulk writes sent with an Idempotency-Key, also when a record of the batch fails', async () => {
    const headers = { 'idempotency-key': `search-bulk-${process.pid}-${Date.now()}` };
    const records = [
      { external_id: `srch-a-${Date.now()}`, name: 'Quillfeather Analytics', contacts: [{ first_name: 'Oskar', last_name: 'Lindqvist' }] },
      { external_id: `srch-b-${Date.now()}`, name: 'Brambleworth Foods' },
      { external_id: `srch-c-${Date.now()}`, name: 'Refused Nimbuscorp', email: 'not an email' },
    ];
    const res = await api.post('/v1/clients/bulk', { mode: 'upsert', records }, { headers });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['created', 'created', 'failed']);
    const [a, b] = res.body.results.map((r: { id: string }) => r.id);
    expect(await foundIds('Quillfeather')).toEqual([a]);
    expect(await foundIds('Lindqvist')).toEqual([a]);
    expect(await foundIds('Brambleworth')).toEqual([b]);
    expect(await foundIds('Nimbuscorp')).toEqual([]);

    const renamed = [{ ...records[1], name: 'Thornbury Foods' }];
    const again = await api.post(
      '/v1/clients/bulk',
      { mode: 'upsert', match_on: 'external_id', records: renamed },
      { headers: { 'idempotency-key': `${headers['idempotency-key']}-2` } },
    );
    expect(again.body.results[0]).toMatchObject({ status: 'updated', id: b });
    expect(await foundIds('Brambleworth')).toEqual([]);
    expect(await foundIds('Thornbury')).toEqual([b]);
  });

  it('does not fail on quotes, parentheses, operators or unicode in the query', async () => {
    const odd = [
      '"Zephyrion',
      '(Zephyrion)',
      'Zephyrion"',
      "O'Brien",
      'NEAR(a b)',
      'name:zephyrion',
      'a AND OR NOT',
      '*',
      '"',
      '()',
      '^',
      '-',
      '😀',
      '北京',
      'Ø',
      'a\\b',
      '%',
      '{}[]',
      'x OR',
    ];
    for (const q of odd) await found(q);
    expect(await foundIds('(Zephyrion)')).toEqual([zephyr.id]);
    expect(await foundIds('"Zephyrion"')).toEqual([zephyr.id]);
    expect(await foundIds('Zephyrion OR Harbor')).toEqual([]);
  });

  it('paginates search results, with the cursor bound to the query', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createClient({ name: `Paginatrix ${i}` })).id);
    await createClient({ name: 'Unrelated Paging Co' });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: any } = await api.get(`/v1/clients?limit=2&q=paginatrix${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual(ids);
    expect(pages).toBe(3);
    const first = await api.get('/v1/clients?limit=2&q=paginatrix');
    expectProblem(await api.get(`/v1/clients?limit=2&q=zephyrion&cursor=${encodeURIComponent(first.body.next_cursor)}`), 400, 'invalid_cursor');
  });
});
