import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';
import { type ApiClient, tempDir } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { writeLeadsCsv } from '../helpers/sync.js';

/**
 * `q` on the lists of leads, clients, deals and invoices (docs/reference/basics.md#lists-and-pagination): full text over each record's
 * named fields, every word a prefix, case and diacritics ignored; writes, deletes and bulk imports
 * are seen by the next search; no input is FTS syntax or a 500; searches page like any list.
 */
let sandbox: RunningApp;
let api: ApiClient;
const tmp = tempDir('crm-lists-search-');
afterAll(() => tmp.remove());

useApp({ rateLimit: '0' }, (s, a) => {
  sandbox = s;
  api = a;
});

type Resource = 'leads' | 'clients' | 'deals' | 'invoices';
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

async function search(resource: Resource, q: string, extra = ''): Promise<string[]> {
  const res = await api.get(`/v1/${resource}?limit=1000&q=${encodeURIComponent(q)}${extra}`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.next_cursor).toBeNull();
  return ids(res);
}

async function create(resource: Resource, body: Record<string, unknown>): Promise<{ id: string; [k: string]: unknown }> {
  const res = await api.post(`/v1/${resource}`, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('leads', () => {
  it('are found by first name, last name, email and company, as word prefixes, without case or diacritics', async () => {
    const zoe = await create('leads', { first_name: 'Zoë', last_name: 'Ångström', email: 'zoe.a@quarkfield.test', company: 'Brightwater Süd' });
    const other = await create('leads', { first_name: 'Zoltan', last_name: 'Brightman', company: 'Elsewhere' });
    expect(await search('leads', 'Zoë')).toEqual([zoe.id]);
    expect(await search('leads', 'zoe')).toEqual([zoe.id]);
    expect(await search('leads', 'ANGSTR')).toEqual([zoe.id]);
    expect(await search('leads', 'quarkfield')).toEqual([zoe.id]);
    expect(await search('leads', 'zoe.a@quarkfield.test')).toEqual([zoe.id]);
    expect(await search('leads', 'brightwater sud')).toEqual([zoe.id]);
    // Every word must match: both leads start with "zo", only one has a word starting "bright…" and "sud".
    expect(await search('leads', 'zo')).toEqual([zoe.id, other.id]);
    expect(await search('leads', 'zo bright')).toEqual([zoe.id, other.id]);
    expect(await search('leads', 'zo sud')).toEqual([zoe.id]);
    // A word inside another is not a prefix of it.
    expect(await search('leads', 'water')).toEqual([]);
  });

  it('are not found by fields outside the search (notes, title)', async () => {
    await create('leads', { first_name: 'Noted', notes: 'xylophonist', title: 'Glockenmeister' });
    expect(await search('leads', 'xylophonist')).toEqual([]);
    expect(await search('leads', 'glockenmeister')).toEqual([]);
  });

  it('reflect an update and a delete at the next search', async () => {
    const lead = await create('leads', { first_name: 'Before', email: 'oldmail@renamed.test', company: 'Oldcorp' });
    expect(await search('leads', 'oldcorp')).toEqual([lead.id]);
    expect((await api.patch(`/v1/leads/${lead.id}`, { company: 'Newcorp', email: 'newmail@renamed.test' })).status).toBe(200);
    expect(await search('leads', 'oldcorp')).toEqual([]);
    expect(await search('leads', 'oldmail')).toEqual([]);
    expect(await search('leads', 'newcorp')).toEqual([lead.id]);
    expect(await search('leads', 'newmail')).toEqual([lead.id]);
    // A change to a field outside the search leaves it found.
    expect((await api.patch(`/v1/leads/${lead.id}`, { notes: 'called' })).status).toBe(200);
    expect(await search('leads', 'newcorp')).toEqual([lead.id]);
    expect((await api.delete(`/v1/leads/${lead.id}`)).status).toBe(200);
    expect(await search('leads', 'newcorp')).toEqual([]);
    // The next lead takes the deleted one's place in the table (SQLite reuses the last rowid): it is found by its own words only.
    const next = await create('leads', { first_name: 'Successor' });
    expect(await search('leads', 'newcorp')).toEqual([]);
    expect(await search('leads', 'successor')).toEqual([next.id]);
  });

  it('combine q with the other filters, and a converted lead stays found', async () => {
    const a = await create('leads', { first_name: 'Filtra', status: 'qualified', company: 'Filterworks' });
    const b = await create('leads', { first_name: 'Filtrb', status: 'new', company: 'Filterworks' });
    expect(await search('leads', 'filterworks', '&status=qualified')).toEqual([a.id]);
    expect(await search('leads', 'filterworks', '&status=new')).toEqual([b.id]);
    expect((await api.post(`/v1/leads/${a.id}/convert`, {})).status).toBe(201);
    expect(await search('leads', 'filterworks', '&status=converted')).toEqual([a.id]);
  });
});

describe('bulk-written records are searchable', () => {
  it('POST /v1/leads/bulk: created and updated records, in the same request as nothing else', async () => {
    const res = await api.post('/v1/leads/bulk', {
      mode: 'upsert',
      records: Array.from({ length: 300 }, (_, i) => ({ external_id: `bulk-s-${i}`, first_name: `Bulkfirst${i}`, company: 'Bulkimport Ltd' })),
    });
    expect(res.status, res.text).toBe(200);
    const created = res.body.results.map((r: { id: string }) => r.id);
    expect(await search('leads', 'bulkimport')).toEqual(created);
    expect(await search('leads', 'bulkfirst299')).toEqual([created[299]]);
    const update = await api.post('/v1/leads/bulk', { mode: 'upsert', records: [{ external_id: 'bulk-s-299', first_name: 'Bulkrenamed' }] });
    expect(update.body.results[0].status).toBe('updated');
    expect(await search('leads', 'bulkfirst299')).toEqual([]);
    expect(await search('leads', 'bulkrenamed')).toEqual([created[299]]);
  });

  it('crm sync import: every imported lead is found by its email and its name', async () => {
    const file = join(tmp.path, 'leads.csv');
    await writeLeadsCsv(file, 900, { externalIds: true, prefix: 'imported' });
    const run = await runCrm(['sync', 'import', 'leads', file, '--results', join(tmp.path, 'results'), '--json'], {
      CRM_BASE_URL: sandbox.baseUrl,
      CRM_API_KEY: sandbox.apiKey,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).summary.created).toBe(900);
    const all = await search('leads', 'imported');
    expect(all).toHaveLength(900);
    // Numbers no other number in the file starts with, so each search finds one lead.
    for (const i of [600, 899, 900]) {
      const id = (await api.get(`/v1/leads?external_id=imported-${i}`)).body.data[0].id;
      expect(await search('leads', `imported${i}@example.com`)).toEqual([id]);
      expect(await search('leads', `First${i} Last${i}`)).toEqual([id]);
    }
  });

  it('POST /v1/clients/bulk: clients and their contact persons', async () => {
    const res = await api.post('/v1/clients/bulk', {
      mode: 'upsert',
      records: [{ external_id: 'bulk-c-1', name: 'Bulkclient Oy', contacts: [{ first_name: 'Kontakti', email: 'kontakti@bulkclient.test' }] }],
    });
    expect(res.status, res.text).toBe(200);
    const [id] = res.body.results.map((r: { id: string }) => r.id);
    expect(await search('clients', 'bulkclient')).toEqual([id]);
    expect(await search('clients', 'kontakti')).toEqual([id]);
  });
});

describe('deals', () => {
  it('are found by title and by their client name, which follows renames and moves', async () => {
    const acme = await create('clients', { name: 'Papageno Partners' });
    const other = await create('clients', { name: 'Sarastro Systems' });
    const deal = await create('deals', { title: 'Flute renewal', value: 10, currency: 'EUR', stage: 'lead_in', client_id: acme.id });
    const loose = await create('deals', { title: 'Flute spare parts', value: 5, currency: 'EUR', stage: 'lead_in' });
    expect(await search('deals', 'flute')).toEqual([deal.id, loose.id]);
    expect(await search('deals', 'renewal')).toEqual([deal.id]);
    expect(await search('deals', 'papageno')).toEqual([deal.id]);
    expect(await search('deals', 'flute papageno')).toEqual([deal.id]);

    expect((await api.patch(`/v1/clients/${acme.id}`, { name: 'Tamino Trading' })).status).toBe(200);
    expect(await search('deals', 'papageno')).toEqual([]);
    expect(await search('deals', 'tamino')).toEqual([deal.id]);

    expect((await api.patch(`/v1/deals/${deal.id}`, { client_id: other.id, title: 'Magic renewal' })).status).toBe(200);
    expect(await search('deals', 'tamino')).toEqual([]);
    expect(await search('deals', 'flute')).toEqual([loose.id]);
    expect(await search('deals', 'sarastro magic')).toEqual([deal.id]);

    // Deleting the client unlinks the deal: its name is no longer the deal's.
    expect((await api.delete(`/v1/clients/${other.id}`)).status).toBe(200);
    expect(await search('deals', 'sarastro')).toEqual([]);
    expect(await search('deals', 'magic')).toEqual([deal.id]);
    expect((await api.delete(`/v1/deals/${deal.id}`)).status).toBe(200);
    expect(await search('deals', 'magic')).toEqual([]);
  });
});

describe('invoices', () => {
  it('are found by number (also without its zeros), recipient email and client name', async () => {
    const client = await create('clients', { name: 'Queen Nightly', email: 'billing@queen-nightly.test' });
    const invoice = await create('invoices', { client_id: client.id, send: false, line_items: [{ description: 'Aria', quantity: 1, unit_price: 10 }] });
    const number = String(invoice.number);
    expect(number).toMatch(/^INV-0+[1-9]\d*$/);
    const digits = number.replace(/^INV-0+/, '');
    expect(await search('invoices', number)).toEqual([invoice.id]);
    expect(await search('invoices', number.toLowerCase())).toEqual([invoice.id]);
    expect(await search('invoices', digits)).toContain(invoice.id);
    expect(await search('invoices', 'queen-nightly.test')).toEqual([invoice.id]);
    expect(await search('invoices', 'nightly')).toEqual([invoice.id]);
    expect(await search('invoices', 'aria')).toEqual([]);

    expect(await search('invoices', 'billing')).toEqual([invoice.id]);
    expect((await api.patch(`/v1/invoices/${invoice.id}`, { recipient_email: 'ap@elsewhere.test' })).status).toBe(200);
    expect(await search('invoices', 'billing')).toEqual([]);
    expect(await search('invoices', 'elsewhere')).toEqual([invoice.id]);
    expect((await api.patch(`/v1/clients/${client.id}`, { name: 'Monostatos Mining' })).status).toBe(200);
    expect(await search('invoices', 'nightly')).toEqual([]);
    expect(await search('invoices', 'monostatos', '&status=draft')).toEqual([invoice.id]);
    expect(await search('invoices', 'monostatos', '&status=open')).toEqual([]);
  });
});

describe('clients', () => {
  it('are found by name, email, website and contact persons, and follow contact changes', async () => {
    const client = await create('clients', {
      name: 'Pamina Pictures',
      email: 'hi@pamina.test',
      website: 'https://paminapix.test',
      contacts: [{ first_name: 'Leporello', email: 'lep@don.test' }],
    });
    for (const q of ['pamina', 'hi@pamina.test', 'paminapix', 'leporello', 'lep@don.test']) expect(await search('clients', q), q).toEqual([client.id]);
    const contacts = (await api.get(`/v1/clients/${client.id}/contacts`)).body.data;
    expect((await api.patch(`/v1/clients/${client.id}/contacts/${contacts[0].id}`, { first_name: 'Zerlina' })).status).toBe(200);
    expect(await search('clients', 'leporello')).toEqual([]);
    expect(await search('clients', 'zerlina')).toEqual([client.id]);
    expect((await api.delete(`/v1/clients/${client.id}/contacts/${contacts[0].id}`)).status).toBe(200);
    expect(await search('clients', 'zerlina')).toEqual([]);
  });
});

describe('what people type is words, never FTS syntax, and never a 500', () => {
  const HOSTILE = [
    '"',
    '""',
    '"""',
    "'",
    '*',
    '**',
    'a*',
    '*a',
    '-',
    '--',
    '-a',
    'a-',
    '+',
    '^',
    '^a',
    ':',
    'body:x',
    'body : x',
    'rowid:1',
    'NEAR(a b)',
    'NEAR(a b, 1)',
    'a NEAR b',
    'a OR b',
    'a AND b',
    'NOT a',
    'AND',
    'OR',
    'NOT',
    '(',
    ')',
    '(a',
    'a)',
    '{a b}',
    '{',
    '[x]',
    '\\',
    '\u0000',
    'a\u0000b',
    '%',
    '_',
    '.',
    ',',
    ';',
    '@',
    '#',
    '$',
    '&',
    '|',
    '~',
    '`',
    '?',
    '!',
    '<>',
    '= 1',
    "'; DROP TABLE leads; --",
    "' OR '1'='1",
    'Zoë 👩🏽‍💻',
    'مرحبا',
    '\u200b',
    '\ufeff',
    'e\u0301',
    '\ud7ff',
    'ǅ',
    'x'.repeat(200),
    'a '.repeat(100),
    '"a" "b"',
    'a"b',
    "it's",
    "o'brien",
    'foo/bar',
    'foo\\bar',
    'C++',
    'c#',
    'a.b@c.d',
    '1e10',
    '-1',
  ];

  it.each(['leads', 'clients', 'deals', 'invoices'] as const)('GET /v1/%s?q=… answers 200 for every one of them', async (resource) => {
    for (const q of HOSTILE) {
      for (const extra of ['', '&order=desc', `&sort=updated_at`]) {
        const res = await api.get(`/v1/${resource}?q=${encodeURIComponent(q)}${extra}`);
        expect(res.status, `${JSON.stringify(q)}${extra}: ${res.text}`).toBe(200);
        expect(Array.isArray(res.body.data)).toBe(true);
      }
    }
  });

  it('quotes, stars and minus signs separate words instead of meaning anything', async () => {
    const lead = await create('leads', { first_name: 'Quoted', last_name: "O'Syntax-Star", company: 'NEAR Systems' });
    for (const q of ['"quoted"', 'quoted*', '-quoted', "o'syntax", 'syntax-star', '"o" "syntax"', 'NEAR', 'near(systems)', 'quoted NEAR']) {
      expect(await search('leads', q), q).toEqual([lead.id]);
    }
    // OR is a word like any other: it must match too.
    expect(await search('leads', 'quoted OR nomatchanywhere')).toEqual([]);
  });
});

describe('search results page like any list', () => {
  // More than 500 matches and fewer: the two ways a search reads its page (search-index.ts) give the same records.
  async function walk(query: string, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: any; text: string } = await api.get(
        `/v1/leads?limit=${limit}&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      seen.push(...ids(res));
      cursor = res.body.next_cursor;
    } while (cursor);
    return seen;
  }

  it('a search matching many and one matching few walk to the same records, in order, each once, both directions', async () => {
    const res = await api.post('/v1/leads/bulk', {
      mode: 'create',
      records: Array.from({ length: 700 }, (_, i) => ({ first_name: `Many${i}`, last_name: i % 100 === 0 ? 'Fewmatch' : 'Plain', company: 'Manymatch' })),
    });
    expect(res.status, res.text).toBe(200);
    const created: string[] = res.body.results.map((r: { id: string }) => r.id);
    const few = created.filter((_, i) => i % 100 === 0);
    expect(await walk('q=manymatch', 97)).toEqual(created);
    expect(await walk('q=manymatch&order=desc', 97)).toEqual([...created].reverse());
    expect(await walk('q=fewmatch', 3)).toEqual(few);
    expect(await walk('q=fewmatch&order=desc', 3)).toEqual([...few].reverse());
    expect(await walk('q=manymatch&sort=updated_at&order=desc', 250)).toEqual([...created].reverse());
    expect(await walk('q=manymatch%20fewmatch&sort=name', 2)).toEqual(
      few.slice().sort((a, b) => {
        const name = (id: string) => `Many${created.indexOf(id)} Fewmatch`.toLowerCase();
        return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
      }),
    );
  });

  it('a cursor is bound to its words: another q, or none, is 400 invalid_cursor', async () => {
    const first = await api.get('/v1/leads?limit=2&q=manymatch');
    const cursor = encodeURIComponent(first.body.next_cursor);
    for (const query of ['q=fewmatch', 'q=manymatc', 'q=Manymatch', '']) {
      const res = await api.get(`/v1/leads?limit=2&${query}&cursor=${cursor}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
    expect((await api.get(`/v1/leads?limit=2&q=manymatch&cursor=${cursor}`)).status).toBe(200);
  });
});
