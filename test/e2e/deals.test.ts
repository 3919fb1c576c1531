import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { aClient } from '../helpers/factories.js';

let sandbox: RunningApp;
let api: ApiClient;
let clientId: string;

const OPEN = ['lead_in', 'qualified', 'proposal', 'negotiation'] as const;
const PROBABILITY = { lead_in: 0.1, qualified: 0.25, proposal: 0.5, negotiation: 0.75, won: 1, lost: 0 } as const;
type Stage = keyof typeof PROBABILITY;

// Many quick calls: the burst limit (100/1s by default) is not what this file tests.
useApp({ rateLimit: '0' }, (started, client) => {
  sandbox = started;
  api = client;
});
beforeAll(async () => {
  clientId = (await aClient(api)).id;
});

/** Reads the sandbox's own database, as another process would, without writing to it. */
function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(sandbox.db, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const eventCount = (type: string, objectId: string) =>
  query<{ n: number }>('SELECT COUNT(*) AS n FROM events WHERE type = ? AND object_id = ?', type, objectId)[0]!.n;

async function createDeal(stage: Stage, extra: Record<string, unknown> = {}) {
  const res = await api.post('/v1/deals', { title: `Deal in ${stage}`, value: 1000, currency: 'EUR', stage, client_id: clientId, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('GET /v1/pipelines', () => {
  it('lists the default pipeline with its stages in order and their default probabilities', async () => {
    const res = await api.get('/v1/pipelines');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const stages = res.body.data[0].stages as { id: Stage; win_probability: number; closed: boolean }[];
    expect(stages.map((s) => s.id)).toEqual(['lead_in', 'qualified', 'proposal', 'negotiation', 'won', 'lost']);
    for (const s of stages) {
      expect(s.win_probability).toBe(PROBABILITY[s.id]);
      expect(s.closed).toBe(s.id === 'won' || s.id === 'lost');
    }
  });
});

describe('creating deals', () => {
  it.each(Object.keys(PROBABILITY) as Stage[])('creates a deal in %s with the stage default probability', async (stage) => {
    const deal = await createDeal(stage);
    expect(deal.stage).toBe(stage);
    expect(deal.win_probability).toBe(PROBABILITY[stage]);
    expect(deal.won_at !== null).toBe(stage === 'won');
    expect(deal.lost_at !== null).toBe(stage === 'lost');
    expect(eventCount('deal.created', deal.id)).toBe(1);
    expect(eventCount('deal.won', deal.id)).toBe(stage === 'won' ? 1 : 0);
    expect(eventCount('deal.lost', deal.id)).toBe(stage === 'lost' ? 1 : 0);
  });

  it('keeps an explicit win_probability', async () => {
    expect((await createDeal('proposal', { win_probability: 0.66 })).win_probability).toBe(0.66);
  });

  it('refuses a client_id that does not exist (422), on create and on update', async () => {
    const created = await api.post('/v1/deals', { title: 'x', value: 1, currency: 'EUR', stage: 'lead_in', client_id: 'cli_missing' });
    expect(created.status).toBe(422);
    expect(created.body.code).toBe('validation_failed');
    expect(created.body.errors.map((e: { path: string }) => e.path)).toContain('client_id');
    const deal = await createDeal('lead_in');
    const patched = await api.patch(`/v1/deals/${deal.id}`, { client_id: 'cli_missing' });
    expect(patched.status).toBe(422);
    expect((await api.get(`/v1/deals/${deal.id}`)).body.client_id).toBe(clientId);
  });
});

describe('money', () => {
  it.each([
    [19.99, 'EUR', 1999],
    [0.3, 'EUR', 30],
    [1234567.89, 'EUR', 123456789],
    [1500, 'JPY', 1500],
    [12.345, 'KWD', 12345],
    [0, 'USD', 0],
  ])('stores %s %s exactly as %i minor units and returns it', async (value, currency, minor) => {
    const deal = await createDeal('lead_in', { value, currency });
    const major = minor / 10 ** (currency === 'JPY' ? 0 : currency === 'KWD' ? 3 : 2);
    expect(deal.value).toBe(major);
    expect((await api.get(`/v1/deals/${deal.id}`)).body.value).toBe(major);
    expect(query<{ value_minor: number }>('SELECT value_minor FROM deals WHERE id = ?', deal.id)[0]!.value_minor).toBe(minor);
  });

  it('checks a PATCHed value the same way; an equal value is no change and writes no event', async () => {
    const deal = await createDeal('lead_in', { value: 0.3 });
    const same = await api.patch(`/v1/deals/${deal.id}`, { value: 0.3 });
    expect(same.body).toEqual(deal);
    // A float sum is what the client's JSON says: 3.3000000000000003 has more decimals than EUR.
    const artefact = await api.patch(`/v1/deals/${deal.id}`, { value: 1.1 + 2.2 });
    expect(artefact.status).toBe(422);
    expect(artefact.body.errors[0]).toMatchObject({ path: 'value', code: 'too_many_decimals' });
    const changed = await api.patch(`/v1/deals/${deal.id}`, { value: 3.3 });
    expect(changed.body.value).toBe(3.3);
    expect(eventCount('deal.updated', deal.id)).toBe(1);
  });

  it.each([
    [19.999, 'EUR'],
    [1500.5, 'JPY'],
    [12.3456, 'KWD'],
    [-1, 'EUR'],
  ])('refuses %s %s (more decimals than the currency has, or negative)', async (value, currency) => {
    const res = await api.post('/v1/deals', { title: 'x', value, currency, stage: 'lead_in' });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain('value');
  });
});

describe('transitions that are allowed', () => {
  it('moves between open stages by PATCH, resetting the probability to the new stage', async () => {
    const deal = await createDeal('lead_in');
    for (const stage of ['negotiation', 'qualified', 'proposal', 'lead_in', 'negotiation'] as const) {
      const res = await api.patch(`/v1/deals/${deal.id}`, { stage });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ stage, win_probability: PROBABILITY[stage], won_at: null, lost_at: null });
    }
  });

  it.each(OPEN)('wins from %s with POST /win: won_at set, deal.won written once even when /win is repeated', async (from) => {
    const deal = await createDeal(from);
    const won = await api.post(`/v1/deals/${deal.id}/win`);
    expect(won.status).toBe(200);
    expect(won.body).toMatchObject({ stage: 'won', win_probability: 1, lost_at: null });
    expect(Date.parse(won.body.won_at)).not.toBeNaN();
    const again = await api.post(`/v1/deals/${deal.id}/win`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_transition');
    expect((await api.get(`/v1/deals/${deal.id}`)).body.won_at).toBe(won.body.won_at);
    expect(eventCount('deal.won', deal.id)).toBe(1);
  });

  it('wins with PATCH {stage: "won"} and writes deal.won once', async () => {
    const deal = await createDeal('proposal');
    const res = await api.patch(`/v1/deals/${deal.id}`, { stage: 'won' });
    expect(res.status).toBe(200);
    expect(res.body.stage).toBe('won');
    expect(res.body.won_at).toEqual(expect.any(String));
    expect(eventCount('deal.won', deal.id)).toBe(1);
    expect(eventCount('deal.updated', deal.id)).toBe(0);
  });

  it('loses with POST /lose {reason}: lost_at and lost_reason set, deal.lost written', async () => {
    const deal = await createDeal('negotiation');
    const res = await api.post(`/v1/deals/${deal.id}/lose`, { reason: 'Went with a competitor' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stage: 'lost', lost_reason: 'Went with a competitor', won_at: null, win_probability: 0 });
    expect(res.body.lost_at).toEqual(expect.any(String));
    expect(eventCount('deal.lost', deal.id)).toBe(1);
  });

  it('loses with POST /lose and no body', async () => {
    const deal = await createDeal('lead_in');
    const res = await api.post(`/v1/deals/${deal.id}/lose`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stage: 'lost', lost_reason: null });
  });

  it.each(['won', 'lost'] as const)('reopens a %s deal into an open stage, clearing won_at and lost_at', async (closed) => {
    const deal = await createDeal(closed, closed === 'lost' ? { lost_reason: 'Price' } : {});
    const res = await api.post(`/v1/deals/${deal.id}/reopen`, { stage: 'qualified' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stage: 'qualified', win_probability: 0.25, won_at: null, lost_at: null, lost_reason: null });
  });

  it('allows PATCH of the title on a closed deal, leaving it closed', async () => {
    const deal = await createDeal('won');
    const res = await api.patch(`/v1/deals/${deal.id}`, { title: 'Renamed after winning' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Renamed after winning', stage: 'won', won_at: deal.won_at });
    expect(eventCount('deal.won', deal.id)).toBe(1);
  });
});

describe('transitions that are refused with 409 invalid_transition', () => {
  const refused: [string, Stage, string, Record<string, unknown> | undefined][] = [
    ['won -> lost by POST /lose', 'won', 'lose', { reason: 'x' }],
    ['lost -> won by POST /win', 'lost', 'win', undefined],
    ['won -> lost by PATCH', 'won', 'patch', { stage: 'lost' }],
    ['lost -> won by PATCH', 'lost', 'patch', { stage: 'won' }],
    ['won -> open stage by PATCH', 'won', 'patch', { stage: 'proposal' }],
    ['lost -> open stage by PATCH', 'lost', 'patch', { stage: 'lead_in' }],
    ['won -> won by PATCH', 'won', 'patch', { stage: 'won' }],
    ['POST /win on a won deal', 'won', 'win', undefined],
    ['POST /lose on a lost deal', 'lost', 'lose', undefined],
    ['POST /reopen on an open deal', 'proposal', 'reopen', { stage: 'qualified' }],
    ['POST /reopen of a won deal to won', 'won', 'reopen', { stage: 'won' }],
    ['POST /reopen of a lost deal to won', 'lost', 'reopen', { stage: 'won' }],
    ['POST /reopen of a won deal to lost', 'won', 'reopen', { stage: 'lost' }],
  ];
  it.each(refused)('%s', async (_name, from, action, body) => {
    const deal = await createDeal(from);
    const res = action === 'patch' ? await api.patch(`/v1/deals/${deal.id}`, body) : await api.post(`/v1/deals/${deal.id}/${action}`, body);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('invalid_transition');
    const after = (await api.get(`/v1/deals/${deal.id}`)).body;
    expect(after).toEqual(deal);
    expect(query<{ n: number }>('SELECT COUNT(*) AS n FROM events WHERE object_id = ?', deal.id)[0]!.n).toBe(from === 'won' || from === 'lost' ? 2 : 1);
  });
});

describe('listing and deleting', () => {
  it('filters by stage and by client_id', async () => {
    const other = (await aClient(api)).id;
    const mine = [await createDeal('proposal', { client_id: other }), await createDeal('won', { client_id: other })];
    const all = (await api.get('/v1/deals?limit=1000')).body.data as { id: string; stage: string; client_id: string }[];
    const byClient = await api.get(`/v1/deals?client_id=${other}`);
    expect(byClient.body.data.map((d: { id: string }) => d.id)).toEqual(mine.map((d) => d.id));
    for (const stage of ['proposal', 'won', 'lost']) {
      const byStage = await api.get(`/v1/deals?stage=${stage}&limit=1000`);
      expect(byStage.body.data.map((d: { id: string }) => d.id)).toEqual(all.filter((d) => d.stage === stage).map((d) => d.id));
    }
    const both = await api.get(`/v1/deals?client_id=${other}&stage=won`);
    expect(both.body.data.map((d: { id: string }) => d.id)).toEqual([mine[1].id]);
  });

  it('deletes a deal: gone afterwards, deal.deleted written, a second delete is 404', async () => {
    const deal = await createDeal('qualified');
    const res = await api.delete(`/v1/deals/${deal.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: deal.id, deleted: true });
    expect((await api.get(`/v1/deals/${deal.id}`)).status).toBe(404);
    expect(eventCount('deal.deleted', deal.id)).toBe(1);
    expect((await api.delete(`/v1/deals/${deal.id}`)).status).toBe(404);
  });
});
