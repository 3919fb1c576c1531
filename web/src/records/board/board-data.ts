// What the board holds and how it gets it: the column heads from GET /v1/deals/summary (counts and
// totals of every deal, however many), each column's most recently changed cards a page at a time
// ("Show more" asks the API for the next page), the names of the clients on its cards (asked for
// through relations.ts, which also keeps them live), and every deal.* event folded in. A big board
// thus loads one summary, six pages of 15 cards and their clients' names, not every deal and client.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, can } from '../../api.js';
import { loadNames } from '../relations.js';
import { onLiveEvent, type LiveEvent } from '../../live.js';
import type { Stage } from '../../../../src/domain/pipeline.js';
import { DEAL_STAGES } from '../resources/deals.js';
import { applyDealEvents, coalesced, type BoardDeal, type StageSummary } from './board-model.js';

/**
 * Cards a column loads at first and per page after: more than a 1440-px-tall window shows (~9), few
 * enough that the first drawing stays quick (a board of 150 cards was ready ~26 ms after one of 72,
 * 21 alternating loads on a 2-core VM).
 */
export const CARDS_PER_PAGE = 15;

type Deals = ReadonlyMap<string, BoardDeal>;
type Page = { data: BoardDeal[]; next_cursor: string | null };

const STAGE_IDS = DEAL_STAGES.map((s) => s.value as Stage);
const pagePath = (stage: Stage, cursor?: string) =>
  `/v1/deals?stage=${stage}&sort=updated_at&order=desc&limit=${CARDS_PER_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

export interface BoardData {
  deals: Deals | null;
  setDeals: (f: (d: Deals) => Deals) => void;
  summary: readonly StageSummary[] | null;
  /** Fetches the heads again; resolves once heads fetched after the call are shown. */
  refreshSummary: () => Promise<void>;
  /** Whether a column has cards the board has not loaded, and loading its next page. */
  hasMore: (stage: Stage) => boolean;
  loadMore: (stage: Stage) => Promise<void>;
  loadError: string;
}

export function useBoardData(): BoardData {
  const [deals, setDealsState] = useState<Deals | null>(null);
  const [summary, setSummary] = useState<readonly StageSummary[] | null>(null);
  const [cursors, setCursors] = useState<ReadonlyMap<Stage, string | null>>(new Map());
  const [loadError, setLoadError] = useState('');
  const setDeals = (f: (d: Deals) => Deals) => setDealsState((d) => (d ? f(d) : d));
  const refreshSummary = useMemo(
    () =>
      coalesced(async () => {
        try {
          setSummary((await api<{ stages: StageSummary[] }>('GET', '/v1/deals/summary')).stages);
        } catch (err) {
          setLoadError(`The columns' counts could not be refreshed: ${(err as Error).message}`);
        }
      }),
    [],
  );

  // An effect, after the first paint: the page's heading and "Loading…" show at once. (A layout
  // effect sent the requests a frame sooner, but their answers then came before the first paint:
  // the heading showed ~70 ms later in alternating loads, the full board ~25 ms sooner.)
  useEffect(() => {
    let loaded = false;
    const early: LiveEvent[] = []; // events that arrive while the board loads are applied after it
    // Deal events are folded in once a frame, all that came since: a bulk import's burst is one update.
    let dealEvents: { type: string; deal: BoardDeal }[] = [];
    const foldDealEvents = () => {
      const batch = dealEvents;
      dealEvents = [];
      setDeals((d) => applyDealEvents(d, batch));
      void refreshSummary();
    };
    const apply = (e: LiveEvent) => {
      const object = e.data.object as Record<string, any>;
      if (e.type.startsWith('deal.')) {
        if (dealEvents.push({ type: e.type, deal: object as BoardDeal }) === 1) requestAnimationFrame(foldDealEvents);
      }
    };
    const stop = onLiveEvent((e) => (loaded ? apply(e) : early.push(e)));
    // The heads and each column's first page, side by side; then their clients' names in one request,
    // before the cards are drawn (which would otherwise show "…" first).
    const heads = api<{ stages: StageSummary[] }>('GET', '/v1/deals/summary');
    const firstPages = Promise.all(STAGE_IDS.map((stage) => api<Page>('GET', pagePath(stage))));
    Promise.all([heads, firstPages])
      .then(async ([{ stages }, pages]) => {
        await namesOfClients(pages.flatMap((p) => p.data));
        return [stages, pages] as const;
      })
      .then(
        ([stages, pages]) => {
          setSummary(stages);
          setDealsState(new Map(pages.flatMap((p) => p.data).map((d) => [d.id, d])));
          setCursors(new Map(STAGE_IDS.map((stage, i) => [stage, pages[i]!.next_cursor])));
          loaded = true;
          early.forEach(apply);
        },
        (err: Error) => setLoadError(err.message),
      );
    return stop;
  }, []);

  const loading = useRef(new Set<Stage>()); // a column asks for one page at a time, whoever asks twice
  const loadMore = async (stage: Stage) => {
    const cursor = cursors.get(stage);
    if (!cursor || loading.current.has(stage)) return;
    loading.current.add(stage);
    try {
      const page = await api<Page>('GET', pagePath(stage, cursor));
      await namesOfClients(page.data); // in one request, before the cards are drawn
      // A card already here (moved in, or changed since) keeps the newer of the two.
      setDeals((d) =>
        applyDealEvents(
          d,
          page.data.map((deal) => ({ type: 'deal.updated', deal })),
        ),
      );
      setCursors((c) => new Map(c).set(stage, page.next_cursor));
    } finally {
      loading.current.delete(stage);
    }
  };
  return { deals, setDeals, summary, refreshSummary, hasMore: (stage) => Boolean(cursors.get(stage)), loadMore, loadError };
}

/**
 * The names of the deals' clients, in one request per 100 ids (relations.ts), settled whatever
 * the answer: the cards then show the names, or say why there is none. Without clients:read none
 * are asked for: the cards say a client needs that scope.
 */
function namesOfClients(deals: readonly BoardDeal[]): Promise<void> {
  if (!can('clients:read')) return Promise.resolve();
  return loadNames(
    'clients',
    deals.flatMap((d) => (d.client_id ? [d.client_id] : [])),
  );
}
