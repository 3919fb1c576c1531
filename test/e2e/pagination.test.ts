import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp } from '../helpers/app.js';

let api: ApiClient;

// No rate limit: these tests send bursts, and rate limiting has its own tests.
useApp({ rateLimit: '0' }, (_s, a) => {
  api = a;
});

const LIMIT = 7;
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

async function createLeads(n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api.post('/v1/leads', { first_name: `${tag}-${i}`, tags: [tag] });
    expect(res.status, res.text).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

/** Everything the list holds right now, in one page (the reference the walks are compared to). */
async function allIds(query: string): Promise<string[]> {
  const res = await api.get(`/v1/leads?limit=1000&${query}`);
  expect(res.status).toBe(200);
  expect(res.body.next_cursor).toBeNull();
  return res.body.data.map((l: { id: string }) => l.id);
}

interface Walk {
  pages: string[][];
  ids: string[];
}

/** Follows next_cursor to the end; `between` runs after every page that has a next one. */
async function walk(query: string, between: () => Promise<void> = async () => {}): Promise<Walk> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: any; text: string } = await api.get(
      `/v1/leads?limit=${LIMIT}&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    pages.push(res.body.data.map((l: { id: string }) => l.id));
    cursor = res.body.next_cursor;
    if (cursor) await between();
    expect(pages.length).toBeLessThan(100);
  } while (cursor);
  return { pages, ids: pages.flat() };
}

async function firstCursor(query: string): Promise<string> {
  const res = await api.get(`/v1/leads?limit=${LIMIT}&${query}`);
  expect(res.status).toBe(200);
  expect(res.body.next_cursor).toEqual(expect.any(String));
  return res.body.next_cursor;
}

function expectInvalidCursor(res: { status: number; body: any; headers: Headers }) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body.code).toBe('invalid_cursor');
}

describe('walking all pages', () => {
  let created: string[];
  beforeAll(async () => {
    created = await createLeads(5 * LIMIT, 'walk');
  });

  it('returns every lead once, in creation order, with full pages and no empty trailing page', async () => {
    const { pages, ids } = await walk('tag=walk');
    expect(ids).toEqual(created);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 7, 7]);
  });

  it('ends with a short last page and next_cursor null when the count is not a multiple of the limit', async () => {
    const extra = await createLeads(3, 'walk');
    const { pages, ids } = await walk('tag=walk');
    expect(ids).toEqual([...created, ...extra]);
    expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 7, 7, 3]);
  });

  it('an empty list is one empty page with next_cursor null', async () => {
    const res = await api.get(`/v1/leads?limit=${LIMIT}&tag=nothing-here`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], next_cursor: null });
  });

  it('a cursor may be used with another limit', async () => {
    const cursor = await firstCursor('tag=walk');
    const res = await api.get(`/v1/leads?limit=3&tag=walk&cursor=${encodeURIComponent(cursor)}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((l: { id: string }) => l.id)).toEqual((await allIds('tag=walk')).slice(LIMIT, LIMIT + 3));
  });
});

describe('pagination while records are added', () => {
  it('new records appear at the end; nothing is skipped or repeated', async () => {
    const before = await createLeads(2 * LIMIT + 2, 'live');
    const addedDuring: string[] = [];
    const { ids } = await walk('tag=live', async () => {
      addedDuring.push(...(await createLeads(3, 'live')));
    });
    expect(addedDuring.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...before, ...addedDuring]);
    expect(ids).toEqual(await allIds('tag=live'));
  });

  it('a record deleted while paging does not disturb the rest', async () => {
    const leads = await createLeads(3 * LIMIT, 'deleting');
    const victim = leads[2 * LIMIT + 1]!;
    let deleted = false;
    const { ids } = await walk('tag=deleting', async () => {
      if (!deleted) expect((await api.delete(`/v1/leads/${victim}`)).status).toBe(200);
      deleted = true;
    });
    expect(ids).toEqual(leads.filter((id) => id !== victim));
  });
});

describe('sort=updated_at', () => {
  it('pages by (updated_at, id): recently updated records come last', async () => {
    const leads = await createLeads(3 * LIMIT, 'sorted');
    const touched = [leads[0]!, leads[5]!, leads[9]!];
    for (const id of touched) {
      await tick();
      expect((await api.patch(`/v1/leads/${id}`, { notes: 'touched' })).status).toBe(200);
    }
    const { pages, ids } = await walk('tag=sorted&sort=updated_at');
    expect(pages.map((p) => p.length)).toEqual([7, 7, 7]);
    expect(ids).toEqual([...leads.filter((id) => !touched.includes(id)), ...touched]);
  });

  it('a record updated while paging moves to the end and is seen again there', async () => {
    const leads = await createLeads(2 * LIMIT, 'sync');
    let patched = false;
    const { ids } = await walk('tag=sync&sort=updated_at', async () => {
      if (!patched) expect((await api.patch(`/v1/leads/${leads[0]}`, { notes: 'changed while paging' })).status).toBe(200);
      patched = true;
    });
    expect(ids).toEqual([...leads, leads[0]]);
  });
});

describe('cursor binding and integrity', () => {
  let cursor: string;
  beforeAll(async () => {
    await createLeads(2 * LIMIT, 'bound');
    cursor = await firstCursor('tag=bound');
  });

  it('works with the same filters', async () => {
    expect((await api.get(`/v1/leads?limit=${LIMIT}&tag=bound&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
  });

  it('is refused with other filters or without them', async () => {
    for (const query of ['tag=walk', 'tag=bound&status=new', 'tag=bound&source=web', '', `tag=bound&created_after=2020-01-01T00:00:00Z`]) {
      expectInvalidCursor(await api.get(`/v1/leads?limit=${LIMIT}&${query}&cursor=${encodeURIComponent(cursor)}`));
    }
  });

  it('is refused with another sort', async () => {
    expectInvalidCursor(await api.get(`/v1/leads?limit=${LIMIT}&tag=bound&sort=updated_at&cursor=${encodeURIComponent(cursor)}`));
    const sorted = await firstCursor('tag=bound&sort=updated_at');
    expectInvalidCursor(await api.get(`/v1/leads?limit=${LIMIT}&tag=bound&cursor=${encodeURIComponent(sorted)}`));
  });

  it('is refused on another resource', async () => {
    expectInvalidCursor(await api.get(`/v1/clients?limit=${LIMIT}&tag=bound&cursor=${encodeURIComponent(cursor)}`));
  });

  it('is refused when any one character is changed', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < cursor.length; i++) {
      const at = alphabet.indexOf(cursor[i]!);
      // Flip the lowest bit of the character's value: the smallest possible edit.
      const replacement = at < 0 ? 'A' : alphabet[at ^ 1]!;
      const tampered = cursor.slice(0, i) + replacement + cursor.slice(i + 1);
      const res = await api.get(`/v1/leads?limit=${LIMIT}&tag=bound&cursor=${encodeURIComponent(tampered)}`);
      expect(res.status, `changed character ${i} (${cursor[i]} -> ${replacement}): ${res.text}`).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
  });

  it('refuses garbage cursors', async () => {
    const garbage = [
      'garbage',
      '',
      '.',
      'a.b',
      'a.b.c',
      `${cursor}x`,
      cursor.split('.')[0]!,
      Buffer.from('{"a":["lead_0"],"f":"x"}').toString('base64url'),
      '%00',
    ];
    for (const bad of garbage) {
      expectInvalidCursor(await api.get(`/v1/leads?limit=${LIMIT}&tag=bound&cursor=${encodeURIComponent(bad)}`));
    }
  });
});
