import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp } from '../helpers/app.js';

/**
 * `?ids=` on the lists of records (leads, clients, deals, invoices): the records with those ids, in
 * the list's order, unknown ids left out; up to 100; with the other filters and paging as usual.
 */
let api: ApiClient;
useApp({ rateLimit: '0', seed: 1 }, (_s, a) => (api = a));

const LISTS = ['/v1/leads', '/v1/clients', '/v1/deals', '/v1/invoices'];
const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

describe('?ids= on the lists of records', () => {
  it.each(LISTS)('%s returns exactly the records named, in the list order, and leaves unknown ids out', async (path) => {
    const all = idsOf(await api.get(`${path}?limit=20`));
    expect(all.length).toBeGreaterThanOrEqual(5);
    const picked = [all[4]!, all[0]!, all[2]!];
    const res = await api.get(`${path}?ids=${[...picked, 'nope_0000'].join(',')}`);
    expect(res.status, res.text).toBe(200);
    expect(idsOf(res)).toEqual([all[0], all[2], all[4]]); // the list's order (oldest first), not the order asked
    expect(idsOf(await api.get(`${path}?ids=${picked.join(',')}&order=desc`))).toEqual([all[4], all[2], all[0]]);
  });

  it('pages through the named records with the cursor, which stays bound to them', async () => {
    const all = idsOf(await api.get('/v1/clients?limit=10'));
    const ids = all.slice(0, 5).join(',');
    const first = await api.get(`/v1/clients?ids=${ids}&limit=2`);
    expect(idsOf(first)).toEqual(all.slice(0, 2));
    const second = await api.get(`/v1/clients?ids=${ids}&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(idsOf(second)).toEqual(all.slice(2, 4));
    const other = await api.get(`/v1/clients?ids=${all.slice(5, 8).join(',')}&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('invalid_cursor');
  });

  it('combines with the other filters', async () => {
    const won = idsOf(await api.get('/v1/deals?stage=won&limit=3'));
    const lost = idsOf(await api.get('/v1/deals?stage=lost&limit=3'));
    expect(idsOf(await api.get(`/v1/deals?ids=${[...won, ...lost].join(',')}&stage=won`)).sort()).toEqual([...won].sort());
  });

  it('refuses what is not a list of up to 100 ids, saying so', async () => {
    const hundredOne = Array.from({ length: 101 }, (_, i) => `cli_${i}`).join(',');
    for (const ids of ['', 'a,,b', 'a,', "cli_1';--", 'cli 1', hundredOne]) {
      const res = await api.get(`/v1/clients?ids=${encodeURIComponent(ids)}`);
      expect(res.status, ids.slice(0, 20)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.errors[0].path).toBe('ids');
    }
    const hundred = Array.from({ length: 100 }, (_, i) => `cli_${i}`).join(',');
    expect((await api.get(`/v1/clients?ids=${hundred}`)).body.data).toEqual([]);
  });
});
