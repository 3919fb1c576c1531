// The pipeline board's pure parts (tested in test/unit/web-board.test.ts): which request moves a
// deal from one stage to another under the API's transition rules, the cards of a column in their
// order, a column's totals per currency, and folding a live event into what the board holds.
import { minorDigits } from '../../../../src/domain/money.js';
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
 * The API call that moves a deal to `to` (API.md §2, deal pipeline): between open stages a PATCH;
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
export function byRecentChange(a: BoardDeal, b: BoardDeal): number {
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

/**
 * A column's value per currency, summed in minor units (integers, so 0.1 + 0.2 is exactly 0.3),
 * by currency code (a stable order, whatever the cards' order); returned in major units.
 */
export function totalsByCurrency(deals: readonly Pick<BoardDeal, 'value' | 'currency'>[]): { currency: string; total: number }[] {
  const minor = new Map<string, number>();
  for (const d of deals) minor.set(d.currency, (minor.get(d.currency) ?? 0) + Math.round(d.value * 10 ** minorDigits(d.currency)));
  return [...minor]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, sum]) => ({ currency, total: sum / 10 ** minorDigits(currency) }));
}

/**
 * Folds a deal event into the board's deals (a new map when something changed, else the same one).
 * A deleted deal goes; otherwise the event's deal replaces ours unless ours is newer (an answer to
 * our own move can arrive before the event it caused, and a late event must not move the card back).
 */
export function applyDealEvent(deals: ReadonlyMap<string, BoardDeal>, type: string, deal: BoardDeal): ReadonlyMap<string, BoardDeal> {
  const ours = deals.get(deal.id);
  if (type === 'deal.deleted') {
    if (!ours) return deals;
    const next = new Map(deals);
    next.delete(deal.id);
    return next;
  }
  if (ours && ours.updated_at > deal.updated_at) return deals;
  return new Map(deals).set(deal.id, deal);
}
