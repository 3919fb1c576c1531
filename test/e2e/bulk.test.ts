import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { dbValue } from '../helpers/sync.js';

let sandbox: RunningApp;
let api: ApiClient;

useApp({ rateLimit: '0' }, (s, a) => {
  sandbox = s;
  api = a;
});
// The custom fields the records below fill.
beforeAll(async () => {
  for (const key of ['score', 'i']) expect((await api.post('/v1/fields', { object: 'lead', key, label: key, type: 'number' })).status).toBe(201);
});

const events = (objectId: string, type?: string) =>
  type
    ? dbValue(sandbox.db, 'SELECT count(*) FROM events WHERE object_id = ? AND type = ?', objectId, type)
    : dbValue(sandbox.db, 'SELECT count(*) FROM events WHERE object_id = ?', objectId);
/** Events of records (the field definitions made above have theirs). */
const allEvents = () => dbValue(sandbox.db, "SELECT count(*) FROM events WHERE type NOT LIKE 'field.%'");

async function bulk(resource: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await api.post(`/v1/${resource}/bulk`, body, { headers });
  expect(res.status, res.text).toBe(200);
  return res.body as {
    results: { index: number; status: string; id?: string; error?: { code: string; message: string; path?: string } }[];
    summary: Record<string, number>;
  };
}

// First in the file: the route's first 20 bodies are parsed by the documented schema, interpreted;
// from the 21st on, by its twin around the compiled record schemas (http/app.ts, schemas/compiled.ts).
describe('a bulk body before and after its compiled twin takes over', () => {
  it('gets the same results, record by record, on its 1st and its 25th request', async () => {
    const records = [
      { external_id: 'twin-1', first_name: 'Ada', email: 'ada.twin@example.com', tags: ['a'], custom_fields: { score: 3 } },
      { external_id: 'twin-2', email: 'not-an-email', status: 'hot' },
      {},
      { external_id: 'twin-4', first_name: 42, unknown_field: true },
      'not a record',
    ];
    const seen = new Set<string>();
    for (let i = 0; i < 25; i++) seen.add(JSON.stringify((await bulk('leads', { mode: 'upsert', records, dry_run: true })).results));
    expect(seen.size).toBe(1);
    const results = JSON.parse([...seen][0]!) as { status: string; error?: { code: string } }[];
    expect(results.map((r) => r.status)).toEqual(['created', 'failed', 'failed', 'failed', 'failed']);
    expect(results[1]!.error?.code).toBe('validation_failed');
    expect(allEvents()).toBe(0); // a dry run writes nothing
  });
});

describe('POST /v1/leads/bulk', () => {
  it('creates, then leaves unchanged (no write, no event), then updates only what changed', async () => {
    const records = [
      { external_id: 'b-1', first_name: 'Ada', email: 'ada.b@example.com', tags: ['vip'], custom_fields: { score: 1 } },
      { external_id: 'b-2', first_name: 'Grace', email: 'grace.b@example.com' },
      { external_id: 'b-3', company: 'Acme' },
    ];
    const first = await bulk('leads', { mode: 'upsert', records });
    expect(first.summary).toEqual({ created: 3, updated: 0, unchanged: 0, failed: 0 });
    expect(first.results.map((r) => r.index)).toEqual([0, 1, 2]);
    const ids = first.results.map((r) => r.id!);
    for (const id of ids) expect(events(id, 'lead.created')).toBe(1);
    const before = (await api.get(`/v1/leads/${ids[0]}`)).body;

    const eventsBefore = allEvents();
    const again = await bulk('leads', { mode: 'upsert', records });
    expect(again.summary).toEqual({ created: 0, updated: 0, unchanged: 3, failed: 0 });
    expect(again.results.map((r) => r.id)).toEqual(ids);
    expect(allEvents()).toBe(eventsBefore);
    expect((await api.get(`/v1/leads/${ids[0]}`)).body.updated_at).toBe(before.updated_at);

    const changed = await bulk('leads', { mode: 'upsert', records: [records[0], { ...records[1], last_name: 'Hopper' }, records[2]] });
    expect(changed.results.map((r) => r.status)).toEqual(['unchanged', 'updated', 'unchanged']);
    expect(events(ids[1]!, 'lead.updated')).toBe(1);
    expect(events(ids[0]!, 'lead.updated')).toBe(0);
    expect(allEvents()).toBe(eventsBefore + 1);
    expect((await api.get(`/v1/leads/${ids[1]}`)).body.last_name).toBe('Hopper');
  });

  it('fails each bad record on its own and writes the good ones', async () => {
    const res = await bulk('leads', {
      mode: 'upsert',
      records: [
        { external_id: 'mix-1', first_name: 'Good' },
        { external_id: 'mix-2', email: 'not-an-email' },
        { external_id: 'mix-3', first_name: 'Typo', frist_name: 'x' },
        'not an object',
        { external_id: 'mix-5', first_name: 'Sneaky', status: 'converted' },
        { external_id: 'mix-6' },
        { external_id: 'mix-7', last_name: 'Also good', source: 'event' },
      ],
    });
    expect(res.results.map((r) => r.status)).toEqual(['created', 'failed', 'failed', 'failed', 'failed', 'failed', 'created']);
    expect(res.summary).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 5 });
    expect(res.results[1]!.error).toMatchObject({ code: 'validation_failed', path: 'email' });
    expect(res.results[2]!.error).toMatchObject({ code: 'validation_failed', path: 'frist_name' });
    expect(res.results[3]!.error!.code).toBe('validation_failed');
    expect(res.results[4]!.error!.code).toBe('invalid_transition');
    expect(res.results[5]!.error).toMatchObject({ code: 'validation_failed', path: 'first_name' });
    for (const r of res.results.filter((r) => r.status === 'failed')) expect(r.id).toBeUndefined();
    expect(dbValue(sandbox.db, "SELECT count(*) FROM leads WHERE external_id LIKE 'mix-%'")).toBe(2);
    expect(dbValue(sandbox.db, 'SELECT count(*) FROM events WHERE data LIKE \'%"mix-5"%\'')).toBe(0);
  });

  it('matches on email case-insensitively, and fails a record whose email two leads share (conflict)', async () => {
    const existing = (await api.post('/v1/leads', { first_name: 'Mixed', email: 'Mixed.Case@Example.com' })).body;
    const matched = await bulk('leads', { mode: 'upsert', match_on: 'email', records: [{ email: 'Mixed.Case@Example.com', title: 'CEO' }] });
    expect(matched.results[0]).toMatchObject({ status: 'updated', id: existing.id });
    const lower = await bulk('leads', { mode: 'upsert', match_on: 'email', records: [{ email: 'mixed.case@example.com', title: 'CEO' }] });
    expect(lower.results[0]).toMatchObject({ status: 'updated', id: existing.id }); // the email's case changed
    expect((await api.get(`/v1/leads/${existing.id}`)).body.email).toBe('mixed.case@example.com');

    await api.post('/v1/leads', { first_name: 'One', email: 'twice@example.com' });
    await api.post('/v1/leads', { first_name: 'Two', email: 'TWICE@example.com' });
    const ambiguous = await bulk('leads', {
      mode: 'upsert',
      match_on: 'email',
      records: [{ email: 'twice@example.com', title: 'x' }, { first_name: 'No email' }],
    });
    expect(ambiguous.results[0]).toMatchObject({ status: 'failed', error: { code: 'conflict' } });
    expect(ambiguous.results[1]!.status).toBe('created'); // nothing to match on: a new lead
    expect(dbValue(sandbox.db, "SELECT count(*) FROM leads WHERE title = 'x'")).toBe(0);
  });

  it('applies records in order: a later record with the same key updates the one an earlier record created', async () => {
    const res = await bulk('leads', {
      mode: 'upsert',
      records: [
        { external_id: 'dup-1', first_name: 'First' },
        { external_id: 'dup-1', first_name: 'Second' },
        { external_id: 'dup-1', first_name: 'Second' },
      ],
    });
    expect(res.results.map((r) => r.status)).toEqual(['created', 'updated', 'unchanged']);
    const id = res.results[0]!.id!;
    expect(res.results.every((r) => r.id === id)).toBe(true);
    expect((await api.get(`/v1/leads/${id}`)).body.first_name).toBe('Second');
    expect(events(id)).toBe(2);
  });

  it('matching on email, a later record whose email differs only in case updates the lead an earlier one created', async () => {
    const res = await bulk('leads', {
      mode: 'upsert',
      match_on: 'email',
      records: [
        { first_name: 'Early', email: 'same.person@example.com' },
        { first_name: 'Late', email: 'Same.Person@Example.com' },
      ],
    });
    expect(res.results.map((r) => r.status)).toEqual(['created', 'updated']);
    expect(res.results[1]!.id).toBe(res.results[0]!.id);
    expect(dbValue(sandbox.db, "SELECT count(*) FROM leads WHERE email LIKE 'same.person@example.com'")).toBe(1);
  });

  it('create mode always creates: a taken external_id fails with conflict, and id is refused', async () => {
    const res = await bulk('leads', {
      mode: 'create',
      records: [{ external_id: 'b-1', first_name: 'Clash' }, { first_name: 'Fresh' }, { first_name: 'Fresh' }, { id: 'lead_X', first_name: 'Id' }],
    });
    expect(res.results.map((r) => r.status)).toEqual(['failed', 'created', 'created', 'failed']);
    expect(res.results[0]!.error!.code).toBe('conflict');
    expect(res.results[3]!.error).toMatchObject({ code: 'validation_failed', path: 'id' });
    expect(res.results[1]!.id).not.toBe(res.results[2]!.id);
  });

  it('upserts by id when a record carries one (as an export does); an unknown id fails with not_found', async () => {
    const lead = (await api.post('/v1/leads', { first_name: 'No external id' })).body;
    const res = await bulk('leads', {
      mode: 'upsert',
      records: [
        { id: lead.id, first_name: 'Renamed' },
        { id: 'lead_01J0000000000000000000000Z', first_name: 'Ghost' },
      ],
    });
    expect(res.results[0]).toMatchObject({ status: 'updated', id: lead.id });
    expect(res.results[1]).toMatchObject({ status: 'failed', error: { code: 'not_found' } });
    expect((await api.get(`/v1/leads/${lead.id}`)).body.first_name).toBe('Renamed');
  });

  it('takes 1000 records in one call, and refuses 0 or 1001 (422)', async () => {
    const records = Array.from({ length: 1000 }, (_, i) => ({ external_id: `k-${i}`, first_name: `K${i}`, tags: ['bulk'] }));
    const res = await bulk('leads', { mode: 'upsert', records });
    expect(res.summary).toEqual({ created: 1000, updated: 0, unchanged: 0, failed: 0 });
    expect(dbValue(sandbox.db, "SELECT count(*) FROM leads WHERE external_id LIKE 'k-%'")).toBe(1000);
    for (const n of [0, 1001]) {
      const refused = await api.post('/v1/leads/bulk', { mode: 'upsert', records: Array.from({ length: n }, () => ({ first_name: 'x' })) });
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].path).toBe('records');
    }
    const badMode = await api.post('/v1/leads/bulk', { mode: 'merge', records: [{ first_name: 'x' }] });
    expect(badMode.status).toBe(422);
  });

  it('writes a batch of new leads together, each with its event and webhook delivery, as single creates would', async () => {
    const endpoint = (await api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['lead.created'] })).body;
    // 250: two full multi-row INSERTs of 100 and a remainder; one record breaks a rule in the middle.
    const records = Array.from({ length: 250 }, (_, i) => ({
      external_id: `new-${i}`,
      first_name: `N${i}`,
      email: `n${i}@example.com`,
      tags: ['t'],
      custom_fields: { i },
    }));
    records[120] = { ...records[120]!, status: 'converted' } as (typeof records)[number];
    const res = await bulk('leads', { mode: 'upsert', records });
    expect(res.summary).toEqual({ created: 249, updated: 0, unchanged: 0, failed: 1 });
    expect(res.results[120]).toMatchObject({ status: 'failed', error: { code: 'invalid_transition' } });
    expect(dbValue(sandbox.db, "SELECT count(*) FROM leads WHERE external_id LIKE 'new-%'")).toBe(249);
    const ids = res.results.filter((r) => r.status === 'created').map((r) => r.id!);
    expect(new Set(ids).size).toBe(249);
    for (const id of [ids[0]!, ids[150]!, ids[248]!]) {
      const data = JSON.parse(dbValue<string>(sandbox.db, "SELECT data FROM events WHERE object_id = ? AND type = 'lead.created'", id));
      expect(data).toEqual((await api.get(`/v1/leads/${id}`)).body);
    }
    const sql =
      "SELECT count(DISTINCT e.object_id) FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE d.endpoint_id = ? AND e.object_id IN (SELECT id FROM leads WHERE external_id LIKE 'new-%')";
    expect(dbValue(sandbox.db, sql, endpoint.id)).toBe(249);
    expect((await api.delete(`/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
  });

  it('needs the resource write scope', async () => {
    const key = (await api.post('/v1/api_keys', { name: 'reader', scopes: ['leads:read', 'clients:write'] })).body.secret;
    const res = await api.post('/v1/leads/bulk', { mode: 'upsert', records: [{ first_name: 'x' }] }, { key });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
  });
});

describe('Idempotency-Key on a bulk call', () => {
  it('replays the whole batch: same body, no new records, no new events', async () => {
    const body = {
      mode: 'upsert',
      records: [
        { external_id: 'idem-1', first_name: 'Once' },
        { external_id: 'idem-2', first_name: 'Twice' },
      ],
    };
    const headers = { 'idempotency-key': `bulk-${process.pid}-${Date.now()}` };
    const first = await api.post('/v1/leads/bulk', body, { headers });
    expect(first.status).toBe(200);
    expect(first.body.summary.created).toBe(2);
    const eventsAfterFirst = allEvents();
    const replay = await api.post('/v1/leads/bulk', body, { headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body); // still "created": the stored response, not a second run
    expect(allEvents()).toBe(eventsAfterFirst);
    expect(dbValue(sandbox.db, "SELECT count(*) FROM leads WHERE external_id LIKE 'idem-%'")).toBe(2);
    const reused = await api.post('/v1/leads/bulk', { ...body, mode: 'create' }, { headers });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
  });
});

describe('POST /v1/clients/bulk', () => {
  const acme = {
    external_id: 'cb-1',
    name: 'Acme',
    contacts: [{ first_name: 'Jana', last_name: 'Schmidt', email: 'jana@acme.example', role: 'CEO', is_primary: true }],
  };

  it('creates clients with their contacts, and merges contacts into existing clients', async () => {
    const created = await bulk('clients', { mode: 'upsert', records: [acme] });
    expect(created.results[0]!.status).toBe('created');
    const id = created.results[0]!.id!;
    const client = (await api.get(`/v1/clients/${id}`)).body;
    expect(client.contacts).toHaveLength(1);
    expect(client.contacts[0]).toMatchObject({ email: 'jana@acme.example', is_primary: true });

    const same = await bulk('clients', { mode: 'upsert', records: [acme] });
    expect(same.results[0]!.status).toBe('unchanged');
    expect(events(id)).toBe(1);

    // Matched by email (any case): updated in place, not added.
    const contact = { ...acme.contacts[0]!, email: 'jana@acme.example', role: 'Chair' };
    const changed = await bulk('clients', { mode: 'upsert', records: [{ ...acme, contacts: [contact] }] });
    expect(changed.results[0]!.status).toBe('updated');
    const after = (await api.get(`/v1/clients/${id}`)).body;
    expect(after.contacts).toHaveLength(1);
    expect(after.contacts[0].role).toBe('Chair');
    expect(events(id, 'client.updated')).toBe(1);

    const added = await bulk('clients', { mode: 'upsert', records: [{ ...acme, contacts: [{ first_name: 'Otto', email: 'otto@acme.example' }] }] });
    expect(added.results[0]!.status).toBe('updated');
    expect((await api.get(`/v1/clients/${id}`)).body.contacts.map((c: { first_name: string }) => c.first_name).sort()).toEqual(['Jana', 'Otto']);
  });

  it('writes a batch of new clients together, with their contacts, events and search rows, as single creates would', async () => {
    // 230: multi-row INSERTs of clients (100s) and of their contacts (two each but none for every
    // tenth client); the record in the middle names two primaries and fails alone.
    type Contact = { first_name: string; last_name?: string; email?: string; is_primary?: boolean };
    const records = Array.from({ length: 230 }, (_, i) => ({
      external_id: `cnew-${i}`,
      name: `Batchclient Q${i}Z`, // Q1Z: a search for it is not a prefix of Q10Z
      address: { city: 'Graz', country: 'AT' },
      contacts: (i % 10
        ? [
            { first_name: `Pia${i}`, email: `pia${i}@c.example`, is_primary: true },
            { first_name: `Udo${i}`, last_name: 'Batchcontact' },
          ]
        : []) as Contact[],
    }));
    records[115] = {
      ...records[115]!,
      contacts: [
        { first_name: 'A', is_primary: true },
        { first_name: 'B', is_primary: true },
      ],
    };
    const res = await bulk('clients', { mode: 'upsert', records });
    expect(res.summary).toEqual({ created: 229, updated: 0, unchanged: 0, failed: 1 });
    expect(res.results[115]).toMatchObject({ status: 'failed', error: { code: 'validation_failed' } });
    expect(dbValue(sandbox.db, "SELECT count(*) FROM clients WHERE external_id LIKE 'cnew-%'")).toBe(229);
    expect(dbValue(sandbox.db, "SELECT count(*) FROM contacts WHERE last_name = 'Batchcontact'")).toBe(229 - 23);
    const ids = res.results.filter((r) => r.status === 'created').map((r) => r.id!);
    for (const id of [ids[0]!, ids[1]!, ids[114]!, ids[228]!]) {
      const client = (await api.get(`/v1/clients/${id}`)).body;
      const data = JSON.parse(dbValue<string>(sandbox.db, "SELECT data FROM events WHERE object_id = ? AND type = 'client.created'", id));
      expect(data).toEqual(client);
      const search = await api.get(`/v1/clients?q=${encodeURIComponent(client.name)}`);
      expect(search.body.data.map((c: { id: string }) => c.id)).toEqual([id]);
    }
    expect(
      (await api.get(`/v1/clients/${ids[1]}`)).body.contacts.map((c: { first_name: string; is_primary: boolean }) => [c.first_name, c.is_primary]),
    ).toEqual([
      ['Pia1', true],
      ['Udo1', false],
    ]);
    const search = await api.get('/v1/clients?limit=1000&q=Batchcontact');
    expect(search.body.data).toHaveLength(229 - 23);
  });

  it('merges contacts in order: a new primary demotes the stored one, an unchanged contact writes nothing', async () => {
    const created = await bulk('clients', {
      mode: 'upsert',
      records: [{ external_id: 'cb-merge', name: 'Merge Oy', contacts: [{ first_name: 'Jana', email: 'jana@merge.example', role: 'CEO', is_primary: true }] }],
    });
    const id = created.results[0]!.id!;
    const unchanged = await bulk('clients', {
      mode: 'upsert',
      records: [{ external_id: 'cb-merge', name: 'Merge Oy', contacts: [{ email: 'jana@merge.example', role: 'CEO' }] }],
    });
    expect(unchanged.results[0]).toMatchObject({ status: 'unchanged', id });
    expect(events(id, 'client.updated')).toBe(0);
    const contacts = [
      { first_name: 'Otto', email: 'otto@merge.example', is_primary: true },
      { email: 'jana@merge.example', role: 'CEO' },
    ];
    const res = await bulk('clients', { mode: 'upsert', records: [{ external_id: 'cb-merge', name: 'Merge Oy', contacts }] });
    expect(res.results[0]).toMatchObject({ status: 'updated', id });
    const after = (await api.get(`/v1/clients/${id}`)).body;
    expect(after.contacts.map((c: { first_name: string; role: string | null; is_primary: boolean }) => [c.first_name, c.role, c.is_primary])).toEqual([
      ['Jana', 'CEO', false],
      ['Otto', null, true],
    ]);
    expect(events(id, 'client.updated')).toBe(1);
  });

  it('fails a client whose contacts name two primaries, and one without a name', async () => {
    const two = [
      { first_name: 'A', is_primary: true },
      { first_name: 'B', is_primary: true },
    ];
    const res = await bulk('clients', {
      mode: 'upsert',
      records: [
        { external_id: 'cb-1', name: 'Acme', contacts: two },
        { external_id: 'cb-2', name: '' },
        { external_id: 'cb-3', name: 'Fine' },
      ],
    });
    expect(res.results.map((r) => r.status)).toEqual(['failed', 'failed', 'created']);
    expect(res.results[0]!.error!.code).toBe('validation_failed');
    expect(res.results[1]!.error!.path).toBe('name');
  });
  it('undoes all of a record that fails after writing part of itself, and still writes the others', async () => {
    // cb-1 exists: the rename is written before the contacts are refused (two primaries).
    const two = [
      { first_name: 'A', is_primary: true },
      { first_name: 'B', is_primary: true },
    ];
    const id = dbValue<string>(sandbox.db, "SELECT id FROM clients WHERE external_id = 'cb-1'");
    const updatesBefore = events(id, 'client.updated');
    const res = await bulk('clients', {
      mode: 'upsert',
      records: [
        { external_id: 'cb-1', name: 'Renamed', contacts: two },
        { external_id: 'cb-9', name: 'Other' },
      ],
    });
    expect(res.results.map((r) => r.status)).toEqual(['failed', 'created']);
    expect((await api.get(`/v1/clients/${id}`)).body.name).toBe('Acme');
    expect(events(id, 'client.updated')).toBe(updatesBefore);
    expect(dbValue(sandbox.db, "SELECT count(*) FROM clients WHERE external_id = 'cb-9'")).toBe(1);
    expect(events(res.results[1]!.id!, 'client.created')).toBe(1);
  });
});

describe('POST /v1/deals/bulk', () => {
  it('creates and updates deals with their events; a deal created won also emits deal.won', async () => {
    const res = await bulk('deals', {
      mode: 'upsert',
      records: [
        { external_id: 'db-1', title: 'Pilot', value: 1200.5, currency: 'EUR', stage: 'qualified' },
        { external_id: 'db-2', title: 'Closed', value: 10, currency: 'USD', stage: 'won' },
        { external_id: 'db-3', title: 'Bad money', value: 1.234, currency: 'EUR', stage: 'qualified' },
      ],
    });
    expect(res.results.map((r) => r.status)).toEqual(['created', 'created', 'failed']);
    expect(events(res.results[1]!.id!, 'deal.won')).toBe(1);
    const moved = await bulk('deals', {
      mode: 'upsert',
      records: [
        { external_id: 'db-1', title: 'Pilot', value: 1200.5, currency: 'EUR', stage: 'proposal' },
        { external_id: 'db-2', title: 'Closed', value: 10, currency: 'USD', stage: 'lost' },
      ],
    });
    expect(moved.results[0]!.status).toBe('updated');
    expect(moved.results[1]).toMatchObject({ status: 'failed', error: { code: 'invalid_transition' } }); // won -> lost only through reopen
  });

  it('matches deals on external_id only (match_on email is a 422)', async () => {
    const res = await api.post('/v1/deals/bulk', { mode: 'upsert', match_on: 'email', records: [{ title: 'x', value: 1, currency: 'EUR', stage: 'lead_in' }] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe('match_on');
  });
});
