import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp } from '../helpers/app.js';

/**
 * `sort` and `order` on the lists of leads, clients, deals and invoices (docs/reference/basics.md#lists-and-pagination): oldest
 * first unless order=desc; the resource's sortable columns, ties in id order, records without the
 * value last in either direction; cursors that continue exactly the sort and order they came from,
 * while records are added and changed; everything else 400.
 */
let api: ApiClient;
useApp({ rateLimit: '0' }, (_s, a) => {
  api = a;
});

type Row = { id: string; [field: string]: any };

async function create(resource: string, body: Record<string, unknown>): Promise<Row> {
  const res = await api.post(`/v1/${resource}`, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Follows next_cursor to the end; `between` runs after every page that has a next one. */
async function walk(resource: string, query: string, limit: number, between: () => Promise<void> = async () => {}): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: { status: number; body: any; text: string } = await api.get(
      `/v1/${resource}?limit=${limit}&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.length, 'no empty page').toBeGreaterThan(0);
    rows.push(...res.body.data);
    cursor = res.body.next_cursor;
    if (cursor) await between();
    expect(++pages).toBeLessThan(200);
  } while (cursor);
  return rows;
}

const idsOf = (rows: Row[]) => rows.map((r) => r.id);

function expectInvalidCursor(res: { status: number; body: any; text: string }) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe('invalid_cursor');
}

/** Sorted as the API promises: by key (undefined = no value, last), then id; `desc` reverses both but keeps the empty ones last. */
function expected(rows: Row[], key: (r: Row) => string | number | undefined, order: 'asc' | 'desc'): string[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (x === undefined || y === undefined) return x === y ? sign * a.id.localeCompare(b.id) : x === undefined ? 1 : -1;
      if (x !== y) return sign * (x < y ? -1 : 1);
      return sign * (a.id < b.id ? -1 : 1);
    })
    .map((r) => r.id);
}

describe('order=desc: newest first', () => {
  it.each(['leads', 'clients', 'deals', 'invoices'])('/v1/%s walks every record once, newest first, over several pages', async (resource) => {
    const client = await create('clients', { name: `Owner of ${resource}`, email: 'owner@example.test' });
    const body = (i: number): Record<string, unknown> =>
      ({
        leads: { first_name: `Desc${i}`, tags: ['desc'] },
        clients: { name: `Desc client ${i}`, tags: ['desc'] },
        deals: { title: `Desc deal ${i}`, value: i, currency: 'EUR', stage: 'lead_in', tags: ['desc'] },
        invoices: { client_id: client.id, send: false, line_items: [{ description: `Line ${i}`, quantity: 1, unit_price: i }] },
      })[resource]!;
    const made: string[] = [];
    for (let i = 0; i < 11; i++) made.push((await create(resource, body(i))).id);
    const filter = resource === 'invoices' ? `client_id=${client.id}` : 'tag=desc';
    const newest = await walk(resource, `${filter}&order=desc`, 4);
    expect(idsOf(newest)).toEqual([...made].reverse());
    expect(idsOf(await walk(resource, `${filter}&order=asc`, 4))).toEqual(made);
    expect(idsOf(await walk(resource, filter, 4))).toEqual(made); // the default is still oldest first
  });

  it('records created while paging newest first are not in that walk; none of the others is skipped or repeated', async () => {
    const before: string[] = [];
    for (let i = 0; i < 15; i++) before.push((await create('leads', { first_name: `Live${i}`, tags: ['live-desc'] })).id);
    const during: string[] = [];
    const rows = await walk('leads', 'tag=live-desc&order=desc', 4, async () => {
      for (let i = 0; i < 2; i++) during.push((await create('leads', { first_name: `Late${i}`, tags: ['live-desc'] })).id);
    });
    expect(during.length).toBeGreaterThan(0);
    expect(idsOf(rows)).toEqual([...before].reverse());
    // A new walk sees them first.
    expect(idsOf(await walk('leads', 'tag=live-desc&order=desc', 50))).toEqual([...before, ...during].reverse());
  });

  it('sort=updated_at&order=desc: the last changed first', async () => {
    const leads: string[] = [];
    for (let i = 0; i < 6; i++) leads.push((await create('leads', { first_name: `Touch${i}`, tags: ['touch'] })).id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await api.patch(`/v1/leads/${leads[1]}`, { notes: 'changed' })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await api.patch(`/v1/leads/${leads[3]}`, { notes: 'changed' })).status).toBe(200);
    const rows = await walk('leads', 'tag=touch&sort=updated_at&order=desc', 2);
    expect(idsOf(rows)).toEqual([leads[3], leads[1], leads[5], leads[4], leads[2], leads[0]]);
  });
});

describe('sortable columns', () => {
  it('leads by name, company and email: without case, ties by id, leads without the value last either way', async () => {
    const specs = [
      { first_name: 'bob', last_name: 'Zeta', company: 'acme', email: 'b@x.test' },
      { first_name: 'Alice', last_name: 'Young', company: 'Acme', email: 'A@x.test' },
      { first_name: 'alice', last_name: 'Xu', company: 'Beta' },
      { company: 'Cetus', email: 'c@x.test' },
      { first_name: 'Carl', email: 'a@x.test' },
      { first_name: 'Bob', last_name: 'Zeta', company: 'acme' },
      { last_name: 'Only', email: 'z@x.test' },
    ];
    const rows: Row[] = [];
    for (const spec of specs) rows.push(await create('leads', { ...spec, tags: ['cols'] }));
    const name = (r: Row) =>
      [r.first_name, r.last_name]
        .filter((v) => v !== null)
        .join(' ')
        .toLowerCase() || undefined;
    const lower = (field: string) => (r: Row) => (r[field] === null ? undefined : String(r[field]).toLowerCase());
    for (const [sort, key] of [
      ['name', name],
      ['company', lower('company')],
      ['email', lower('email')],
    ] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const walked = await walk('leads', `tag=cols&sort=${sort}&order=${order}`, 2);
        expect(idsOf(walked), `${sort} ${order}`).toEqual(expected(rows, key, order));
      }
    }
    // Spot checks that say the rule in words.
    const byCompany = idsOf(await walk('leads', 'tag=cols&sort=company', 3));
    expect(byCompany.slice(0, 3)).toEqual([rows[0]!.id, rows[1]!.id, rows[5]!.id]); // acme, Acme, acme: by id
    expect(byCompany.slice(-2)).toEqual([rows[4]!.id, rows[6]!.id]); // no company: last, by id
    const byCompanyDesc = idsOf(await walk('leads', 'tag=cols&sort=company&order=desc', 3));
    expect(byCompanyDesc[0]).toBe(rows[3]!.id); // Cetus
    expect(byCompanyDesc.slice(-2)).toEqual([rows[6]!.id, rows[4]!.id]); // still last, by id descending
  });

  it('deals by value (the amount as it reads, across currencies), title and expected_close_date', async () => {
    const specs = [
      { title: 'gamma', value: 1000, currency: 'JPY', expected_close_date: '2026-05-01' },
      { title: 'Alpha', value: 19.99, currency: 'EUR' },
      { title: 'beta', value: 1000, currency: 'EUR', expected_close_date: '2026-03-01' },
      { title: 'Beta', value: 0.5, currency: 'KWD', expected_close_date: '2026-03-01' },
      { title: 'delta', value: 1e12, currency: 'USD' },
      { title: 'epsilon', value: 20, currency: 'JPY', expected_close_date: '2025-12-31' },
    ];
    const rows: Row[] = [];
    for (const spec of specs) rows.push(await create('deals', { ...spec, stage: 'lead_in', tags: ['deal-cols'] }));
    const value = (r: Row) => r.value as number;
    const title = (r: Row) => String(r.title).toLowerCase();
    const close = (r: Row) => r.expected_close_date ?? undefined;
    for (const [sort, key] of [
      ['value', value],
      ['title', title],
      ['expected_close_date', close],
    ] as const) {
      for (const order of ['asc', 'desc'] as const) {
        expect(idsOf(await walk('deals', `tag=deal-cols&sort=${sort}&order=${order}`, 2)), `${sort} ${order}`).toEqual(expected(rows, key, order));
      }
    }
    expect((await walk('deals', 'tag=deal-cols&sort=value&order=desc', 1)).map((d) => d.value)).toEqual([1e12, 1000, 1000, 20, 19.99, 0.5]);
  });

  it('invoices by total and due_date', async () => {
    const client = await create('clients', { name: 'Sorted invoices', email: 'sorted@example.test' });
    const specs = [
      { currency: 'EUR', unit_price: 10.5, due_date: '2026-02-01' },
      { currency: 'JPY', unit_price: 300 },
      { currency: 'EUR', unit_price: 10.5, due_date: '2026-01-15' },
      { currency: 'BHD', unit_price: 1.234, due_date: '2026-02-01' },
    ];
    const rows: Row[] = [];
    for (const { unit_price, ...spec } of specs) {
      rows.push(await create('invoices', { client_id: client.id, send: false, ...spec, line_items: [{ description: 'x', quantity: 2, unit_price }] }));
    }
    const query = `client_id=${client.id}`;
    for (const [sort, key] of [
      ['total', (r: Row) => r.total as number],
      ['due_date', (r: Row) => r.due_date ?? undefined],
    ] as const) {
      for (const order of ['asc', 'desc'] as const) {
        expect(idsOf(await walk('invoices', `${query}&sort=${sort}&order=${order}`, 1)), `${sort} ${order}`).toEqual(expected(rows, key, order));
      }
    }
  });

  it('clients by name', async () => {
    const rows: Row[] = [];
    for (const name of ['mango', 'Apple', 'apple', 'Banana']) rows.push(await create('clients', { name, tags: ['fruit'] }));
    for (const order of ['asc', 'desc'] as const) {
      expect(idsOf(await walk('clients', `tag=fruit&sort=name&order=${order}`, 1))).toEqual(expected(rows, (r) => String(r.name).toLowerCase(), order));
    }
  });
});

describe('paging a sort while records are added and changed', () => {
  it('every record that was there at the start comes once, in order; none comes twice', async () => {
    const start: Row[] = [];
    for (let i = 0; i < 24; i++) start.push(await create('leads', { first_name: `Name${String((i * 7) % 24).padStart(2, '0')}`, tags: ['busy'] }));
    const added: Row[] = [];
    let n = 0;
    for (const order of ['asc', 'desc'] as const) {
      const rows = await walk('leads', `tag=busy&sort=name&order=${order}`, 5, async () => {
        // Names before, among and after the walk's position: some land behind it, some ahead.
        for (const name of [`Name${String(n % 24).padStart(2, '0')}b`, `Aaa${n}`, `Zzz${n}`])
          added.push(await create('leads', { first_name: name, tags: ['busy'] }));
        n++;
      });
      const ids = idsOf(rows);
      expect(new Set(ids).size, 'no record twice').toBe(ids.length);
      for (const row of start) expect(ids, `${row.first_name} ${order}`).toContain(row.id);
      // The walk is in order: what it returned is sorted by (name, id) in its direction.
      const everyone = [...start, ...added];
      const walkedRows = ids.map((id) => everyone.find((r) => r.id === id)!);
      expect(ids).toEqual(expected(walkedRows, (r) => String(r.first_name).toLowerCase(), order));
      expect(added.length).toBeGreaterThan(0);
    }
  });

  it('a deal whose value changes while paging is seen where its new value puts it, or not at all; the others once each', async () => {
    const deals: Row[] = [];
    for (let i = 1; i <= 12; i++)
      deals.push(await create('deals', { title: `Moving ${i}`, value: i * 100, currency: 'EUR', stage: 'lead_in', tags: ['moving'] }));
    let moved = false;
    const rows = await walk('deals', 'tag=moving&sort=value', 4, async () => {
      if (moved) return;
      moved = true;
      // The smallest deal (already returned) becomes the largest: it is seen again at the end.
      expect((await api.patch(`/v1/deals/${deals[0]!.id}`, { value: 5000 })).status).toBe(200);
    });
    expect(idsOf(rows)).toEqual([...idsOf(deals), deals[0]!.id]);
  });
});

describe('cursors are bound to the sort and the order', () => {
  it('a cursor used with another sort, another order or another resource is 400 invalid_cursor', async () => {
    for (let i = 0; i < 5; i++) await create('leads', { first_name: `Bound${i}`, company: `Co${i}`, tags: ['bound-order'] });
    const first = async (query: string) => {
      const res = await api.get(`/v1/leads?limit=2&tag=bound-order&${query}`);
      expect(res.status).toBe(200);
      return encodeURIComponent(res.body.next_cursor);
    };
    const pairs: [string, string][] = [
      ['sort=name', 'sort=company'],
      ['sort=name', 'sort=name&order=desc'],
      ['sort=name&order=desc', 'sort=name'],
      ['order=desc', ''],
      ['', 'order=desc'],
      ['sort=updated_at&order=desc', 'sort=updated_at'],
      ['sort=company', 'sort=created'],
      ['sort=email&order=desc', 'sort=email&order=desc&q=bound'],
    ];
    for (const [from, to] of pairs) {
      expectInvalidCursor(await api.get(`/v1/leads?limit=2&tag=bound-order&${to}&cursor=${await first(from)}`));
    }
    expectInvalidCursor(await api.get(`/v1/clients?limit=2&tag=bound-order&sort=name&cursor=${await first('sort=name')}`));
    // The same sort and order continue, whether the default order is spelt out or not.
    for (const [from, to] of [
      ['sort=name', 'sort=name'],
      ['', 'order=asc'],
      ['order=asc', ''],
      ['sort=company&order=desc', 'order=desc&sort=company'],
    ]) {
      const res = await api.get(`/v1/leads?limit=2&tag=bound-order&${to}&cursor=${await first(from!)}`);
      expect(res.status, `${from} → ${to}: ${res.text}`).toBe(200);
    }
  });

  it('unknown sorts and orders are 400 invalid_request naming the parameter', async () => {
    const BAD: [string, string, string][] = [
      ['leads', 'sort=value', 'sort'],
      ['leads', 'sort=-created', 'sort'],
      ['leads', 'sort=created_at', 'sort'],
      ['clients', 'sort=email', 'sort'],
      ['deals', 'sort=name', 'sort'],
      ['invoices', 'sort=value', 'sort'],
      ['invoices', 'sort=number', 'sort'],
      ['leads', 'order=descending', 'order'],
      ['deals', 'order=', 'order'],
      ['clients', 'order=asc&order=desc', 'order'],
      ['invoices', 'sort=total&sort=due_date', 'sort'],
    ];
    for (const [resource, query, name] of BAD) {
      const res = await api.get(`/v1/${resource}?${query}`);
      expect(res.status, `${resource}?${query}: ${res.text}`).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(name);
    }
  });
});
