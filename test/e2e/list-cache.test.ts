// List pages are kept while the database does not change (src/store/list-json.ts, docs/benchmarks.md):
// these tests write in every way the sandbox's data can change and check that the next list shows
// it at once — never a page from before the write.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../dist/index.js';

type Page = { data: { id: string; title?: string; first_name?: string }[]; next_cursor: string | null };
let dir: string;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;

async function call(method: string, path: string, body?: unknown, key = sandbox.apiKey!): Promise<{ status: number; json: any }> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: await res.json() };
}
const list = async (path: string, key?: string) => (await call('GET', path, undefined, key)).json as Page;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crm-list-cache-'));
  sandbox = await startSandbox({ db: join(dir, 'crm.db') });
});
afterAll(async () => {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a list asked again', () => {
  it('is the same page, byte for byte, and its cursor continues the list', async () => {
    const first = await fetch(`${sandbox.baseUrl}/v1/deals?limit=5`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
    const again = await fetch(`${sandbox.baseUrl}/v1/deals?limit=5`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
    const [a, b] = [await first.text(), await again.text()];
    expect(b).toBe(a);
    const page = JSON.parse(a) as Page;
    const next = await list(`/v1/deals?limit=5&cursor=${encodeURIComponent(page.next_cursor!)}`);
    const ten = await list('/v1/deals?limit=10');
    expect([...page.data, ...next.data].map((d) => d.id)).toEqual(ten.data.map((d) => d.id));
  });

  it('shows an update, a create and a delete made through the API at once', async () => {
    const before = await list('/v1/deals?limit=5');
    const target = before.data[1]!;
    expect((await call('PATCH', `/v1/deals/${target.id}`, { title: 'Renamed while listed' })).status).toBe(200);
    expect((await list('/v1/deals?limit=5')).data[1]!.title).toBe('Renamed while listed');

    const create = await call('POST', '/v1/deals', { title: 'Newest deal', value: 10, currency: 'EUR', stage: 'lead_in' });
    expect(create.status).toBe(201);
    const created = create.json as { id: string };
    expect((await list('/v1/deals?limit=1&order=desc')).data[0]!.id).toBe(created.id);
    expect((await call('DELETE', `/v1/deals/${created.id}`)).status).toBe(200);
    expect((await list('/v1/deals?limit=1&order=desc')).data[0]!.id).not.toBe(created.id);
  });

  it('shows a reset and a restored snapshot at once', async () => {
    await sandbox.snapshot('before-leads');
    const created = (await call('POST', '/v1/leads', { first_name: 'Only after the snapshot' })).json as { id: string };
    expect((await list('/v1/leads?limit=1&order=desc')).data[0]!.id).toBe(created.id);
    await sandbox.restore('before-leads');
    expect((await list('/v1/leads?limit=1&order=desc')).data[0]!.id).not.toBe(created.id);
    await sandbox.reset();
    // Seeded again from scratch: the newest lead is a seeded one, not the one made above.
    expect((await list('/v1/leads?limit=1000')).data.some((l) => l.id === created.id)).toBe(false);
  });

  it("keeps each account's pages to that account", async () => {
    const other = await sandbox.createAccount({ name: 'cache neighbour', seed: null });
    await list('/v1/deals?limit=5');
    expect((await list('/v1/deals?limit=5', other.apiKey)).data).toEqual([]);
    const mine = (await call('POST', '/v1/deals', { title: 'Only in the neighbour', value: 1, currency: 'EUR', stage: 'lead_in' }, other.apiKey)).json as {
      id: string;
    };
    expect((await list('/v1/deals?limit=5', other.apiKey)).data.map((d) => d.id)).toEqual([mine.id]);
    expect((await list('/v1/deals?limit=1000')).data.some((d) => d.id === mine.id)).toBe(false);
  });

  it('shows a write made by another process on the file (within the check interval)', async () => {
    const target = (await list('/v1/deals?limit=1')).data[0]!;
    const outside = new Database(join(dir, 'crm.db'));
    try {
      outside.pragma('busy_timeout = 5000');
      outside.prepare('UPDATE deals SET title = ? WHERE id = ?').run('Written by sqlite3', target.id);
    } finally {
      outside.close();
    }
    // Lists ask SQLite whether another connection committed at most every 100 ms (list-json.ts).
    let title: string | undefined;
    for (let i = 0; i < 100 && title !== 'Written by sqlite3'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      title = (await list('/v1/deals?limit=1')).data[0]!.title;
    }
    expect(title).toBe('Written by sqlite3');
  });
});
