import Database from 'better-sqlite3';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { openSseStream } from '../helpers/sse-stream.js';
import { apiClient, startSandboxProcess, type ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

let sandbox: RunningApp;
let api: ApiClient;

useApp({}, (s, a) => {
  sandbox = s;
  api = a;
});

type Ev = { id: string; type: string; created_at: string; data: { object: Record<string, any> }; previous_attributes?: Record<string, unknown> };

async function allEvents(query = ''): Promise<Ev[]> {
  const out: Ev[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; text: string; body: { data: Ev[]; next_cursor: string | null } } = await api.get(
      `/v1/events?limit=1000${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}
const about = (events: Ev[], id: string) => events.filter((e) => e.data.object.id === id);

/** An open event stream and the messages it has delivered so far. */
async function openStream(headers: Record<string, string> = {}, query = '') {
  const stream = await openSseStream(`${sandbox.baseUrl}/v1/events/stream${query}`, { authorization: `Bearer ${sandbox.apiKey}`, ...headers });
  return { ...stream, events: () => stream.messages.filter((m) => m.hasData) };
}

describe('events of every type, with previous_attributes on changes', () => {
  it('are written for leads, clients, deals and invoices', async () => {
    const lead = (await api.post('/v1/leads', { first_name: 'Eve', email: 'eve@example.com', company: 'Events Ltd' })).body;
    await api.patch(`/v1/leads/${lead.id}`, { status: 'contacted' });
    await api.post(`/v1/leads/${lead.id}/convert`, {});
    const gone = (await api.post('/v1/leads', { first_name: 'Gone' })).body;
    await api.delete(`/v1/leads/${gone.id}`);

    const client = (await api.post('/v1/clients', { name: 'Evented', email: 'billing@evented.example' })).body;
    await api.patch(`/v1/clients/${client.id}`, { phone: '+1 555 0101' });
    const other = (await api.post('/v1/clients', { name: 'Short-lived' })).body;
    await api.delete(`/v1/clients/${other.id}`);

    const deal = (await api.post('/v1/deals', { title: 'Evented deal', value: 100, currency: 'EUR', stage: 'lead_in', client_id: client.id })).body;
    await api.patch(`/v1/deals/${deal.id}`, { stage: 'proposal' });
    await api.post(`/v1/deals/${deal.id}/win`);
    const lost = (await api.post('/v1/deals', { title: 'Lost deal', value: 1, currency: 'EUR', stage: 'proposal' })).body;
    await api.post(`/v1/deals/${lost.id}/lose`, { reason: 'price' });
    await api.delete(`/v1/deals/${lost.id}`);

    const line_items = [{ description: 'Work', quantity: 1, unit_price: 10 }];
    const draft = (await api.post('/v1/invoices', { client_id: client.id, line_items, send: false })).body;
    await api.post(`/v1/invoices/${draft.id}/void`);
    const sent = (await api.post('/v1/invoices', { client_id: client.id, line_items })).body;
    await api.post(`/v1/invoices/${sent.id}/pay`);

    const events = await allEvents();
    const types = (id: string) => about(events, id).map((e) => e.type);
    expect(types(lead.id)).toEqual(['lead.created', 'lead.updated', 'lead.converted']);
    expect(types(gone.id)).toEqual(['lead.created', 'lead.deleted']);
    expect(types(client.id)).toEqual(['client.created', 'client.updated']);
    expect(types(other.id)).toEqual(['client.created', 'client.deleted']);
    expect(types(deal.id)).toEqual(['deal.created', 'deal.updated', 'deal.won']);
    expect(types(lost.id)).toEqual(['deal.created', 'deal.lost', 'deal.deleted']);
    expect(types(draft.id)).toEqual(['invoice.created', 'invoice.voided']);
    expect(types(sent.id)).toEqual(['invoice.created', 'invoice.sent', 'invoice.paid']);

    const one = (id: string, type: string) => about(events, id).find((e) => e.type === type)!;
    expect(one(lead.id, 'lead.updated').previous_attributes).toEqual({ status: 'new' });
    expect(one(lead.id, 'lead.converted').previous_attributes).toMatchObject({ status: 'contacted', converted_client_id: null });
    expect(one(client.id, 'client.updated').previous_attributes).toEqual({ phone: null });
    expect(one(deal.id, 'deal.updated').previous_attributes).toMatchObject({ stage: 'lead_in', win_probability: 0.1 });
    expect(one(deal.id, 'deal.won').previous_attributes).toMatchObject({ stage: 'proposal', won_at: null });
    expect(one(lost.id, 'deal.lost').previous_attributes).toMatchObject({ stage: 'proposal', lost_at: null, lost_reason: null });
    expect(one(sent.id, 'invoice.sent').previous_attributes).toEqual({ status: 'draft', sent_at: null, payment_link: null });
    expect(one(sent.id, 'invoice.paid').previous_attributes).toEqual({ status: 'open', paid_at: null });
    expect(one(draft.id, 'invoice.voided').previous_attributes).toEqual({ status: 'draft', voided_at: null });
    // Creations and deletions carry the object, no previous_attributes.
    for (const e of [one(lead.id, 'lead.created'), one(gone.id, 'lead.deleted'), one(sent.id, 'invoice.created'), one(lost.id, 'deal.deleted')]) {
      expect(e).not.toHaveProperty('previous_attributes');
    }
    expect(one(deal.id, 'deal.won').data.object).toMatchObject({ id: deal.id, stage: 'won' });
    expect(one(sent.id, 'invoice.paid').data.object).toMatchObject({ status: 'paid' });
  });
});

describe('GET /v1/events', () => {
  it('lists oldest first with cursors: no event skipped or repeated', async () => {
    const all = await allEvents();
    expect(all.length).toBeGreaterThan(5);
    const paged: Ev[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { data: Ev[]; next_cursor: string | null } } = await api.get(
        `/v1/events?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.body.data.length).toBeGreaterThan(0);
      paged.push(...res.body.data);
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(paged.map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect([...all.map((e) => e.id)].sort()).toEqual(all.map((e) => e.id));
  });

  it('filters by type (one or several) and created_after', async () => {
    const won = await allEvents('&type=deal.won');
    expect(won.length).toBeGreaterThan(0);
    expect(won.every((e) => e.type === 'deal.won')).toBe(true);
    const two = await allEvents('&type=deal.won,lead.deleted');
    expect(new Set(two.map((e) => e.type))).toEqual(new Set(['deal.won', 'lead.deleted']));

    const all = await allEvents();
    const middle = all[Math.floor(all.length / 2)]!;
    const later = await allEvents(`&created_after=${encodeURIComponent(middle.created_at)}`);
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((e) => e.created_at > middle.created_at)).toBe(true);
    expect(later.map((e) => e.id)).toEqual(all.filter((e) => e.created_at > middle.created_at).map((e) => e.id));
  });

  it('refuses unknown types, and a cursor used with other filters', async () => {
    const bad = await api.get('/v1/events?type=deal.exploded');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_request');
    const page = await api.get('/v1/events?limit=1');
    const reused = await api.get(`/v1/events?limit=1&type=deal.won&cursor=${encodeURIComponent(page.body.next_cursor)}`);
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('invalid_cursor');
  });

  it('gets one event by id; unknown ids are 404', async () => {
    const [first] = await allEvents();
    expect((await api.get(`/v1/events/${first!.id}`)).body).toEqual(first);
    const missing = await api.get('/v1/events/evt_01NOSUCHEVENT');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('needs the events:read scope', async () => {
    const key = (await api.post('/v1/api_keys', { name: 'leads only', scopes: ['leads:read'] })).body.secret;
    const res = await api.get('/v1/events', { key });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('scope="events:read"');
    const stream = await request(`${sandbox.baseUrl}/v1/events/stream`, { headers: { authorization: `Bearer ${key}` } });
    expect(stream.statusCode).toBe(403);
    await stream.body.dump();
  });
});

describe('GET /v1/events/stream', () => {
  it('starts at the newest event (an id-only message) and pushes new events as they commit', async () => {
    const newest = (await allEvents()).at(-1)!;
    const stream = await openStream();
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      await stream.until('the position message', () => stream.messages.length > 0);
      expect(stream.messages[0]).toEqual({ id: newest.id, event: 'message', data: '', hasData: false });

      const lead = (await api.post('/v1/leads', { first_name: 'Streamed' })).body;
      await api.patch(`/v1/leads/${lead.id}`, { last_name: 'Live' });
      await stream.until('two events', () => stream.events().length === 2);
      const [created, updated] = stream.events();
      expect([created!.event, updated!.event]).toEqual(['lead.created', 'lead.updated']);
      for (const m of [created!, updated!]) {
        const event = JSON.parse(m.data);
        expect(m.id).toBe(event.id);
        expect(event).toEqual((await api.get(`/v1/events/${m.id}`)).body);
      }
      expect(JSON.parse(updated!.data).data.object).toMatchObject({ id: lead.id, last_name: 'Live' });
    } finally {
      await stream.close();
    }
  });

  it('resumes after Last-Event-ID or ?after=, in order, with nothing skipped or repeated', async () => {
    const all = await allEvents();
    const from = all[all.length - 4]!;
    const expected = all.slice(-3).map((e) => e.id);

    const byHeader = await openStream({ 'last-event-id': from.id });
    const byQuery = await openStream({}, `?after=${from.id}`);
    try {
      for (const s of [byHeader, byQuery]) {
        await s.until('the missed events', () => s.events().length >= 3);
        expect(s.messages.every((m) => m.hasData)).toBe(true); // no position message when resuming
      }
      // Then a new one arrives on both, after the replayed ones.
      const lead = (await api.post('/v1/leads', { first_name: 'After resume' })).body;
      for (const s of [byHeader, byQuery]) {
        await s.until('the new event', () => s.events().length === 4);
        expect(s.events().map((m) => m.id)).toEqual([...expected, s.events()[3]!.id]);
        expect(JSON.parse(s.events()[3]!.data).data.object.id).toBe(lead.id);
      }
    } finally {
      await byHeader.close();
      await byQuery.close();
    }
  });

  it('with after=evt_ replays every event kept, and filters by type', async () => {
    const all = await allEvents();
    const everything = await openStream({}, '?after=evt_');
    const wins = await openStream({}, '?after=evt_&type=deal.won');
    try {
      await everything.until('all events', () => everything.events().length === all.length);
      expect(everything.events().map((m) => m.id)).toEqual(all.map((e) => e.id));
      const expectedWins = all.filter((e) => e.type === 'deal.won').map((e) => e.id);
      await wins.until('the deal.won events', () => wins.events().length === expectedWins.length);
      expect(wins.events().map((m) => m.id)).toEqual(expectedWins);
    } finally {
      await everything.close();
      await wins.close();
    }
  });

  it('refuses a malformed position', async () => {
    const res = await request(`${sandbox.baseUrl}/v1/events/stream?after=deal_1`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
    expect(res.statusCode).toBe(400);
    expect(((await res.body.json()) as { code: string }).code).toBe('invalid_request');
  });

  it('does not keep the sandbox from stopping', async () => {
    const own = await startSandboxProcess(['--no-seed']);
    const response = await request(`${own.baseUrl}/v1/events/stream`, { headers: { authorization: `Bearer ${own.apiKey}` } });
    expect(response.statusCode).toBe(200);
    const ended = response.body.text().catch(() => 'aborted');
    expect(await own.stop('SIGTERM')).toBe(0);
    await ended;
  });
});

describe('retention', () => {
  it('keeps 30 days: the seed’s backdated history (January 2026) is purged at start and never listed', async () => {
    const seeded = await startSandboxProcess([]);
    try {
      const conn = new Database(seeded.db, { readonly: true });
      const cutoff = new Date(Date.now() - 30 * 86_400_000).toISOString();
      const old = conn.prepare('SELECT count(*) FROM events WHERE created_at < ?').pluck().get(cutoff);
      const leads = conn.prepare('SELECT count(*) FROM leads').pluck().get() as number;
      conn.close();
      expect(leads).toBeGreaterThan(0); // the seed ran, and wrote events with its records
      expect(old).toBe(0);
      const listed = (await apiClient(seeded).get('/v1/events?limit=1000')).body.data as Ev[];
      expect(listed.every((e) => e.created_at >= cutoff)).toBe(true);
    } finally {
      await seeded.stop();
    }
  });
});

describe("a record's history: object_id and order", () => {
  it('lists only the events about one record, oldest first or newest first, and a cursor keeps the filter', async () => {
    const lead = (await api.post('/v1/leads', { first_name: 'History', email: 'history@example.com' })).body;
    const other = (await api.post('/v1/leads', { first_name: 'Other', email: 'other-history@example.com' })).body;
    for (const status of ['contacted', 'qualified', 'unqualified']) await api.patch(`/v1/leads/${lead.id}`, { status });
    await api.patch(`/v1/leads/${other.id}`, { status: 'contacted' });

    const oldestFirst = await allEvents(`&object_id=${lead.id}`);
    expect(oldestFirst.map((e) => e.type)).toEqual(['lead.created', 'lead.updated', 'lead.updated', 'lead.updated']);
    expect(oldestFirst.every((e) => e.data.object.id === lead.id)).toBe(true);
    const newestFirst = await allEvents(`&object_id=${lead.id}&order=desc`);
    expect(newestFirst.map((e) => e.id)).toEqual(oldestFirst.map((e) => e.id).reverse());

    // Two at a time: the cursor continues the same record's list in the same order.
    const first = await api.get(`/v1/events?object_id=${lead.id}&order=desc&limit=2`);
    const second = await api.get(`/v1/events?object_id=${lead.id}&order=desc&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect([...first.body.data, ...second.body.data].map((e: Ev) => e.id)).toEqual(newestFirst.map((e) => e.id));
    // …and is refused for another record's list.
    const crossed = await api.get(`/v1/events?object_id=${other.id}&order=desc&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(crossed.status).toBe(400);
    expect((await api.get('/v1/events?order=sideways')).status).toBe(400);
    expect(await allEvents('&object_id=lead_doesnotexist')).toEqual([]);
  });
});
