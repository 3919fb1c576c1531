import { describe, expect, it } from 'vitest';
import {
  applyDealEvent,
  applyDealEvents,
  coalesced,
  columnHeads,
  groupByStage,
  moveRequest,
  type BoardDeal,
  type StageSummary,
} from '../../web/src/records/board/board-model.js';
import { matchActions, matchPages, recordResult } from '../../web/src/command-menu/results.js';
import { deals } from '../../web/src/records/resources/deals.js';

/** The pipeline board's and the command menu's pure parts (web/src/records/board, web/src/command-menu). */
const deal = (id: string, stage: BoardDeal['stage'], updated_at: string, value = 1, currency = 'EUR'): BoardDeal => ({
  id,
  title: id,
  value,
  currency,
  stage,
  client_id: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at,
});

describe('moving a deal', () => {
  it('asks the API the way its transition rules say: PATCH between open stages, win, lose, reopen', () => {
    expect(moveRequest({ id: 'deal_1', stage: 'lead_in' }, 'proposal')).toEqual({ method: 'PATCH', path: '/v1/deals/deal_1', body: { stage: 'proposal' } });
    expect(moveRequest({ id: 'deal_1', stage: 'proposal' }, 'won')).toEqual({ method: 'POST', path: '/v1/deals/deal_1/win', body: undefined });
    expect(moveRequest({ id: 'deal_1', stage: 'proposal' }, 'lost')).toEqual({ method: 'POST', path: '/v1/deals/deal_1/lose', body: undefined });
    expect(moveRequest({ id: 'deal_1', stage: 'proposal' }, 'lost', 'Budget cut')).toEqual({
      method: 'POST',
      path: '/v1/deals/deal_1/lose',
      body: { reason: 'Budget cut' },
    });
    expect(moveRequest({ id: 'deal_1', stage: 'lost' }, 'qualified')).toEqual({
      method: 'POST',
      path: '/v1/deals/deal_1/reopen',
      body: { stage: 'qualified' },
    });
    // won → lost is refused by the API (its message is what the user reads), not decided here.
    expect(moveRequest({ id: 'deal_1', stage: 'won' }, 'lost').path).toBe('/v1/deals/deal_1/lose');
    expect(moveRequest({ id: 'a/b', stage: 'lead_in' }, 'qualified').path).toBe('/v1/deals/a%2Fb');
  });
});

describe('columns', () => {
  it('groups by stage, most recently changed first', () => {
    const columns = groupByStage(
      [deal('d1', 'won', '2026-01-01'), deal('d2', 'won', '2026-01-03'), deal('d3', 'lost', '2026-01-02')],
      ['won', 'lost', 'proposal'],
    );
    expect(columns.get('won')!.map((d) => d.id)).toEqual(['d2', 'd1']);
    expect(columns.get('lost')!.map((d) => d.id)).toEqual(['d3']);
    expect(columns.get('proposal')).toEqual([]);
  });
});

describe('column heads', () => {
  const summary: StageSummary[] = [
    {
      stage: 'proposal',
      count: 3,
      totals: [
        { currency: 'EUR', count: 2, value: 0.3 },
        { currency: 'JPY', count: 1, value: 2717000 },
      ],
    },
    { stage: 'won', count: 1, totals: [{ currency: 'CHF', count: 1, value: 1.5 }] },
    { stage: 'lost', count: 0, totals: [] },
  ];

  it('are the summary while nothing moves', () => {
    expect([...columnHeads(summary, []).values()]).toEqual(summary);
  });

  it('move a card in flight from its column to the next, exactly (minor units), by currency code', () => {
    const heads = columnHeads(summary, [{ from: deal('a', 'proposal', '', 0.1), to: 'won' }]);
    expect(heads.get('proposal')).toEqual({
      stage: 'proposal',
      count: 2,
      totals: [
        { currency: 'EUR', count: 1, value: 0.2 },
        { currency: 'JPY', count: 1, value: 2717000 },
      ],
    });
    expect(heads.get('won')).toEqual({
      stage: 'won',
      count: 2,
      totals: [
        { currency: 'CHF', count: 1, value: 1.5 },
        { currency: 'EUR', count: 1, value: 0.1 },
      ],
    });
  });

  it('keep a sum past 2^53 minor units exact: the API sends it as a decimal string', () => {
    const big: StageSummary[] = [
      { stage: 'proposal', count: 3, totals: [{ currency: 'KWD', count: 3, value: '12000000000000.003' }] },
      { stage: 'won', count: 0, totals: [] },
    ];
    const heads = columnHeads(big, [{ from: deal('k', 'proposal', '', 0.001, 'KWD'), to: 'won' }]);
    expect(heads.get('proposal')!.totals).toEqual([{ currency: 'KWD', count: 2, value: '12000000000000.002' }]);
    expect(heads.get('won')).toEqual({ stage: 'won', count: 1, totals: [{ currency: 'KWD', count: 1, value: 0.001 }] });
  });

  it('drop a currency whose last deal left, even when it was worth nothing', () => {
    const heads = columnHeads(summary, [
      { from: deal('c', 'proposal', '', 2717000, 'JPY'), to: 'lost' },
      { from: deal('z', 'won', '', 1.5, 'CHF'), to: 'lost' },
    ]);
    expect(heads.get('proposal')!.totals.map((t) => t.currency)).toEqual(['EUR']);
    expect(heads.get('won')).toEqual({ stage: 'won', count: 0, totals: [] });
    expect(heads.get('lost')).toEqual({
      stage: 'lost',
      count: 2,
      totals: [
        { currency: 'CHF', count: 1, value: 1.5 },
        { currency: 'JPY', count: 1, value: 2717000 },
      ],
    });
  });
});

describe('refreshing the heads', () => {
  it('runs once at a time: calls while it runs make one more run, which they all wait for', async () => {
    const runs: (() => void)[] = [];
    let started = 0;
    const refresh = coalesced(() => new Promise<void>((resolve) => ((started += 1), runs.push(resolve))));
    const first = refresh();
    const second = refresh();
    const third = refresh();
    expect(second).toBe(third);
    expect(started).toBe(1);
    runs[0]!();
    await first;
    await Promise.resolve();
    expect(started).toBe(2); // the one more run, started after the first ended
    let secondDone = false;
    void second.then(() => (secondDone = true));
    await Promise.resolve();
    expect(secondDone).toBe(false); // waits for the run that started after it was asked
    runs[1]!();
    await second;
    expect(started).toBe(2);
    const idle = refresh(); // nothing runs now: a call starts a run at once
    expect(started).toBe(3);
    runs[2]!();
    await idle;
  });

  it("never runs twice at once, even when asked between a run's end and the next one's start", async () => {
    const runs: (() => void)[] = [];
    let started = 0;
    const refresh = coalesced(() => new Promise<void>((resolve) => ((started += 1), runs.push(resolve))));
    const first = refresh();
    let between: Promise<void> | undefined;
    void first.then(() => (between = refresh())); // runs before the queued run starts
    const second = refresh();
    runs[0]!();
    await first;
    await Promise.resolve();
    expect(between).toBe(second);
    expect(started).toBe(2);
    runs[1]!();
    await second;
    expect(started).toBe(2);
  });

  it('runs again after a run that failed', async () => {
    let calls = 0;
    const refresh = coalesced(async () => {
      calls += 1;
      if (calls === 1) throw new Error('offline');
    });
    const failing = refresh();
    const after = refresh();
    await expect(failing).rejects.toThrow('offline');
    await expect(after).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});

describe('live events', () => {
  it('applies a newer deal, keeps ours when the event is older, drops a deleted one', () => {
    const ours = new Map([['d1', deal('d1', 'proposal', '2026-01-02')]]);
    expect(applyDealEvent(ours, 'deal.updated', deal('d1', 'lead_in', '2026-01-01'))).toBe(ours);
    expect(applyDealEvent(ours, 'deal.won', deal('d1', 'won', '2026-01-03')).get('d1')!.stage).toBe('won');
    expect(applyDealEvent(ours, 'deal.created', deal('d2', 'lost', '2026-01-03')).size).toBe(2);
    expect(applyDealEvent(ours, 'deal.deleted', deal('d1', 'proposal', '2026-01-02')).size).toBe(0);
    expect(applyDealEvent(ours, 'deal.deleted', deal('d9', 'proposal', '2026-01-02'))).toBe(ours);
  });

  it('folds a burst in order, in one new map; the same map when nothing in it changes anything', () => {
    const ours = new Map([['d1', deal('d1', 'proposal', '2026-01-02')]]);
    const burst = Array.from({ length: 1000 }, (_, i) => ({ type: 'deal.created', deal: deal(`n${i}`, 'lead_in', '2026-01-03') }));
    const next = applyDealEvents(ours, [
      ...burst,
      { type: 'deal.won', deal: deal('d1', 'won', '2026-01-04') },
      { type: 'deal.deleted', deal: deal('n5', 'lead_in', '2026-01-05') },
    ]);
    expect(next.size).toBe(1000);
    expect(next.get('d1')!.stage).toBe('won');
    expect(next.has('n5')).toBe(false);
    expect(ours.size).toBe(1); // ours untouched
    expect(
      applyDealEvents(ours, [
        { type: 'deal.updated', deal: deal('d1', 'lead_in', '2026-01-01') },
        { type: 'deal.deleted', deal: deal('d9', 'won', '') },
      ]),
    ).toBe(ours);
  });
});

describe('command menu results', () => {
  const pages = [
    { name: 'Overview', href: '/dashboard/' },
    { name: 'API keys', href: '/dashboard/api-keys' },
    { name: 'API reference', href: '/docs', external: true },
  ];

  it('finds pages by a part of their name, case and accents ignored; all of them for nothing typed', () => {
    expect(matchPages(pages, 'api').map((r) => r.label)).toEqual(['API keys', 'API reference']);
    expect(matchPages(pages, 'ÖVER').map((r) => r.href)).toEqual(['/dashboard/']);
    expect(matchPages(pages, '  ')).toHaveLength(3);
    expect(matchPages(pages, 'reference')[0]).toMatchObject({ external: true, group: 'Pages' });
  });

  it("finds actions as it finds pages, in their own group, with keys apart from the pages' ones", () => {
    const actions = [
      { name: 'New lead', href: '/dashboard/leads?new=1' },
      { name: 'New deal', href: '/dashboard/deals?new=1' },
    ];
    expect(matchActions(actions, 'new').map((r) => r.label)).toEqual(['New lead', 'New deal']);
    expect(matchActions(actions, 'DEAL')).toEqual([
      { key: 'Actions:/dashboard/deals?new=1', group: 'Actions', label: 'New deal', detail: '', href: '/dashboard/deals?new=1' },
    ]);
    expect(matchActions(actions, 'invoice')).toEqual([]);
    const keys = [...matchPages([{ name: 'Leads', href: '/dashboard/leads?new=1' }], ''), ...matchActions(actions, '')].map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('names a record and says which one it is', () => {
    const r = recordResult(deals, { id: 'deal_9', title: 'Z3', value: 4200, currency: 'EUR', stage: 'proposal' });
    expect(r).toMatchObject({ group: 'Deals', label: 'Z3', href: '/dashboard/deals/deal_9' });
    expect(r.detail.replace(/\u00a0/g, ' ')).toMatch(/4,200\.00.* · Proposal$/);
  });
});
