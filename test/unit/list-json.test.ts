import { afterAll, describe, expect, it } from 'vitest';
import { createClient, getClient, listClients } from '../../src/services/clients.js';
import { createContact } from '../../src/services/contacts.js';
import { createContext } from '../../src/services/context.js';
import { createLead, getLead, listLeads, updateLead } from '../../src/services/leads.js';
import { openDb } from '../../src/store/db.js';
import { JsonBody, rowJsonSql } from '../../src/store/list-json.js';

/**
 * The lead and client lists are JSON text made by SQLite (src/store/list-json.ts). Each item must
 * parse to exactly the record that GET /x/{id} gives through rowCodec, whatever the values hold.
 */
const db = openDb(':memory:');
const ctx = createContext(db);
afterAll(() => db.close());

const odd = 'quote " backslash \\ newline \n tab \t cr \r nul-ish \u0001 del \u007f ls \u2028 é 😀 €';

const leads = [
  createLead(ctx, { first_name: 'Plain', email: 'plain@example.com' }),
  createLead(ctx, {
    first_name: odd,
    last_name: '',
    company: 'ACME',
    notes: odd.repeat(20),
    source: 'web',
    external_id: 'ext "1"',
    tags: ['a', 'b|c', '["json"]', odd],
  }),
  createLead(ctx, { company: 'Third', tags: [], custom_fields: {} }),
];
updateLead(ctx, leads[0]!.id, { status: 'contacted' });
/**
 * Odd values written to the rows as stored JSON: the lists must render whatever a row holds (values
 * from before definitions, keys no field could have), not only what today's checks let in.
 */
const hold = (table: string, id: string, values: Record<string, unknown>) =>
  db.prepare(`UPDATE ${table} SET custom_fields = ? WHERE id = ?`).run(JSON.stringify(values), id);
hold('leads', leads[1]!.id, { n: 0.30000000000000004, big: 1e21, small: 1.5e-7, neg: -3, t: true, f: false, z: null, s: '42', e: '', __proto__x: odd });

const clients = [
  createClient(ctx, { name: 'No contacts' }),
  createClient(ctx, {
    name: odd,
    address: { city: 'Zürich', country: 'CH', line1: odd },
    tags: ['x'],
    contacts: [
      { first_name: 'Second', email: 'b@example.com' },
      { first_name: 'Primary', last_name: odd, is_primary: true },
    ],
  }),
];
createContact(ctx, clients[0]!.id, { email: 'late@example.com', role: 'cfo' });
hold('clients', clients[1]!.id, { tier: 2 });

const parse = (page: JsonBody) => JSON.parse(page.bytes.toString('utf8')) as { data: { id: string }[]; next_cursor: string | null };

describe('list pages as JSON text made by SQLite', () => {
  it('gives each lead as GET /v1/leads/{id} does', () => {
    const page = parse(listLeads(ctx, { limit: 50, sort: 'created', order: 'asc' }));
    expect(page.next_cursor).toBeNull();
    expect(page.data).toEqual(leads.map((l) => getLead(ctx, l.id)));
    // Same keys in the same order as the codec's objects, not only the same values.
    expect(page.data.map((l) => Object.keys(l))).toEqual(leads.map((l) => Object.keys(getLead(ctx, l.id))));
  });

  it('gives each client with its contact persons, ordered by id, as GET /v1/clients/{id} does', () => {
    const page = parse(listClients(ctx, { limit: 50, sort: 'created', order: 'asc' }));
    expect(page.data).toEqual(clients.map((c) => getClient(ctx, c.id)));
    expect(page.data.map((c) => Object.keys(c))).toEqual(clients.map((c) => Object.keys(getClient(ctx, c.id))));
    expect(page.data[0]).toMatchObject({ contacts: [{ email: 'late@example.com', is_primary: false }] });
  });

  it('pages with cursors like every list, by id and by updated_at', () => {
    for (const [sort, limit] of [
      ['created', 1],
      ['created', 2],
      ['updated_at', 2],
    ] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = parse(listLeads(ctx, { limit, sort, order: 'asc', cursor }));
        expect(page.data.length).toBeGreaterThan(0);
        seen.push(...page.data.map((l) => l.id));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      const expected = leads.map((l) => getLead(ctx, l.id));
      if (sort === 'updated_at') expected.sort((a, b) => a.updated_at.localeCompare(b.updated_at) || a.id.localeCompare(b.id));
      expect(seen).toEqual(expected.map((l) => l.id));
    }
    const first = parse(listLeads(ctx, { limit: 1, sort: 'created', order: 'asc' }));
    expect(() => listLeads(ctx, { limit: 1, sort: 'updated_at', order: 'asc', cursor: first.next_cursor! })).toThrow(/other filters or another sort/);
  });

  it('applies the filters', () => {
    expect(parse(listLeads(ctx, { limit: 50, sort: 'created', order: 'asc', status: 'contacted' })).data.map((l) => l.id)).toEqual([leads[0]!.id]);
    expect(parse(listLeads(ctx, { limit: 50, sort: 'created', order: 'asc', tag: odd })).data.map((l) => l.id)).toEqual([leads[1]!.id]);
    expect(parse(listClients(ctx, { limit: 50, sort: 'created', order: 'asc', q: 'Primary' })).data.map((c) => c.id)).toEqual([clients[1]!.id]);
    expect(parse(listLeads(ctx, { limit: 50, sort: 'created', order: 'asc', email: 'nobody@example.com' }))).toEqual({ data: [], next_cursor: null });
  });

  it('reads an empty JSON column as null, as the codec does', () => {
    db.prepare("UPDATE leads SET custom_fields = '' WHERE id = ?").run(leads[2]!.id);
    const item = parse(listLeads(ctx, { limit: 50, sort: 'created', order: 'asc' })).data[2];
    expect(item).toEqual(getLead(ctx, leads[2]!.id));
    expect(item).toMatchObject({ custom_fields: null });
    db.prepare("UPDATE leads SET custom_fields = '{}' WHERE id = ?").run(leads[2]!.id);
  });

  it('refuses columns that SQLite would print differently from JS', () => {
    db.exec('CREATE TABLE numbers (id TEXT, value REAL)');
    expect(() => rowJsonSql(db, { table: 'numbers' })).toThrow(/numbers.value is REAL/);
  });

  it('serialises as its bytes, also through JSON.stringify', () => {
    const body = new JsonBody(Buffer.from('{"data":[{"a":"é"}],"next_cursor":null}'));
    expect(JSON.stringify({ page: body })).toBe('{"page":{"data":[{"a":"é"}],"next_cursor":null}}');
  });
});
