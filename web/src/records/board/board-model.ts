// The pipeline board's pure parts (tested in test/unit/web-board.test.ts): which request moves a
// deal from one stage to another under the API's transition rules, the cards of a column in their
// order, the column heads while moves are in flight, folding a live event into what the board
// holds, and refreshing the heads once per burst of events.
import { roundToMinor, sumToMajor, sumToMinor } from '../../../../src/domain/money.js';
import { isClosed, type Stage } from '../../../../src/domain/pipeline.js';

export interface BoardDeal {
  id: string;
  title: string;
  value: number;
  currency: string;
  stage: Stage;
  client_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface MoveRequest {
  method: 'PATCH' | 'POST';
  path: string;
  body: Record<string, unknown> | undefined;
}

/**
 * The API call that moves a deal to `to` (docs/reference/states.md#deals-the-pipeline): between open stages a PATCH;
 * into won or lost the win / lose actions (each emits deal.won / deal.lost once); out of won or lost
 * only reopen (a lost reason, when given, goes with the lose). A move the rules forbid (won → lost)
 * is still sent, so the refusal and its words come from the API, the one place the rules live,
 * never from a second copy here.
 */
export function moveRequest(deal: Pick<BoardDeal, 'id' | 'stage'>, to: Stage, lostReason?: string): MoveRequest {
  const path = `/v1/deals/${encodeURIComponent(deal.id)}`;
  if (to === 'won') return { method: 'POST', path: `${path}/win`, body: undefined };
  if (to === 'lost') return { method: 'POST', path: `${path}/lose`, body: lostReason === undefined ? undefined : { reason: lostReason } };
  if (isClosed(deal.stage)) return { method: 'POST', path: `${path}/reopen`, body: { stage: to } };
  return { method: 'PATCH', path, body: { stage: to } };
}

/** Most recently changed first (a card just moved lands on top of its new column), then newest. */
function byRecentChange(a: BoardDeal, b: BoardDeal): number {
  if (a.updated_at !== b.updated_at) return a.updated_at < b.updated_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** The deals of each stage, in board order. */
export function groupByStage(deals: Iterable<BoardDeal>, stages: readonly string[]): Map<string, BoardDeal[]> {
  const columns = new Map<string, BoardDeal[]>(stages.map((s) => [s, []]));
  for (const d of deals) columns.get(d.stage)?.push(d);
  for (const list of columns.values()) list.sort(byRecentChange);
  return columns;
}

/** A column's head as GET /v1/deals/summary gives it: its count and its value per currency. */
export interface StageSummary {
  stage: Stage;
  count: number;
  /** A sum beyond 2^53 minor units is an exact decimal string (the API's summary). */
  totals: { currency: string; count: number; value: number | string }[];
}

/**
 * The heads the board shows: the API's summary, with each move still in flight taken out of its
 * old column and added to its new one (in minor units, so exactly), until the summary fetched after
 * the move's answer replaces them. A currency whose last deal left a column leaves its totals.
 */
export function columnHeads(
  summary: readonly StageSummary[],
  moving: Iterable<{ from: Pick<BoardDeal, 'stage' | 'value' | 'currency'>; to: Stage }>,
): Map<Stage, StageSummary> {
  const heads = new Map(
    summary.map((s) => [
      s.stage,
      { count: s.count, byCurrency: new Map(s.totals.map((t) => [t.currency, { count: t.count, minor: sumToMinor(t.value, t.currency) }])) },
    ]),
  );
  const add = (stage: Stage, deal: Pick<BoardDeal, 'value' | 'currency'>, sign: 1 | -1) => {
    const head = heads.get(stage);
    if (!head) return;
    const total = head.byCurrency.get(deal.currency) ?? { count: 0, minor: 0n };
    head.count += sign;
    head.byCurrency.set(deal.currency, { count: total.count + sign, minor: total.minor + BigInt(sign * roundToMinor(deal.value, deal.currency)) });
  };
  for (const { from, to } of moving) {
    add(from.stage, from, -1);
    add(to, from, 1);
  }
  return new Map(
    [...heads].map(([stage, head]) => [
      stage,
      {
        stage,
        count: head.count,
        totals: [...head.byCurrency]
          .filter(([, t]) => t.count > 0)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([currency, t]) => ({ currency, count: t.count, value: sumToMajor(t.minor, currency) })),
      },
    ]),
  );
}

/**
 * Runs `task` at most once at a time: a call while it runs asks for one more run after it (however
 * many calls came meanwhile), and resolves when a run that started after the call has finished.
 * The board's summary is refreshed this way on every deal event, so a burst of a thousand events
 * costs two requests, and its answers cannot arrive out of order.
 */
export function coalesced(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const run = (): Promise<void> => {
    const current: Promise<void> = task().finally(() => {
      if (running === current) running = null;
    });
    running = current;
    return current;
  };
  return () => {
    if (queued) return queued; // the run after this one is asked for already
    if (!running) return run();
    const after = () => ((queued = null), run());
    queued = running.then(after, after);
    return queued;
  };
}

/**
 * Folds deal events into the board's deals (a new map when something changed, else the same one),
 * copying the map once for the lot: a bulk import's thousand events cost one copy, not a thousand.
 * A deleted deal goes; otherwise the event's deal replaces ours unless ours is newer (an answer to
 * our own move can arrive before the event it caused, and a late event must not move the card back).
 */
export function applyDealEvents(deals: ReadonlyMap<string, BoardDeal>, events: readonly { type: string; deal: BoardDeal }[]): ReadonlyMap<string, BoardDeal> {
  let next: Map<string, BoardDeal> | undefined;
  for (const { type, deal } of events) {
    const ours = (next ?? deals).get(deal.id);
    if (type === 'deal.deleted' ? !ours : ours && ours.updated_at > deal.updated_at) continue;
    next ??= new Map(deals);
    if (type === 'deal.deleted') next.delete(deal.id);
    else next.set(deal.id, deal);
  }
  return next ?? deals;
}

export const applyDealEvent = (deals: ReadonlyMap<string, BoardDeal>, type: string, deal: BoardDeal) => applyDealEvents(deals, [{ type, deal }]);
