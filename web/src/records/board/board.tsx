// The deal pipeline as a board (/dashboard/deals?view=board, docs/dashboard.md#the-pipeline-board): a column per stage with
// its count and value per currency, cards moved by drag and drop or by their `Move to` menu through
// the API's own transitions, kept live by the dashboard's one event stream.
//
// Size: the heads come from the API's summary and each column loads its cards a page at a time
// (board-data.ts), so a board of thousands of deals loads seven small answers and keeps a few hundred
// elements. Client names come from one `?ids=` request per page of cards (relations.ts), not a request per card.
import type { ComponentChildren } from 'preact';
import { useMemo, useRef, useState } from 'preact/hooks';
import { api, can } from '../../api.js';
import { isClosed, type Stage } from '../../../../src/domain/pipeline.js';
import { CreateDialog } from '../create-dialog.js';
import { DEAL_STAGES, deals as dealSpec } from '../resources/deals.js';
import { applyDealEvent, columnHeads, groupByStage, moveRequest, type BoardDeal } from './board-model.js';
import { useBoardData } from './board-data.js';
import { BoardColumn } from './board-column.js';
import { LoseDialog } from './lose-dialog.js';
import './board.css';

/** A move whose answer, and the summary after it, have not arrived: the deal as it was, and where to. */
type Move = { from: BoardDeal; to: Stage };

const STAGE_IDS = DEAL_STAGES.map((s) => s.value);
const STAGE_CHOICES = DEAL_STAGES as { value: Stage; label: string }[];
const stageLabel = (stage: string): string => DEAL_STAGES.find((s) => s.value === stage)?.label ?? stage;
/** Sorts above every real updated_at: a card whose move is in flight sits on top of its new column. */
const IN_FLIGHT = '\uffff';

/** Puts the focus back on a card's `Move to` button once it has been drawn in its (new) column. */
function focusCard(id: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-deal="${CSS.escape(id)}"] [aria-haspopup="menu"]`)?.focus());
}

export function DealBoard(props: { views: ComponentChildren }) {
  const { deals, setDeals, summary, refreshSummary, hasMore, loadMore, loadError } = useBoardData();
  const [pending, setPending] = useState<ReadonlyMap<string, Move>>(new Map());
  const [error, setError] = useState('');
  const [said, say] = useState('');
  const [creating, setCreating] = useState(false);
  const [losing, setLosing] = useState<{ deal: BoardDeal; byKeyboard: boolean } | null>(null);
  const writable = can('deals:write');

  const columns = useMemo(() => {
    const shown = [...(deals?.values() ?? [])].map((d) => {
      const move = pending.get(d.id);
      return move ? { ...d, stage: move.to, updated_at: IN_FLIGHT } : d;
    });
    return groupByStage(shown, STAGE_IDS);
  }, [deals, pending]);
  const heads = useMemo(() => columnHeads(summary ?? [], pending.values()), [summary, pending]);

  /**
   * Moves a card at once, asks the API, and puts it back with the API's words when refused. Into
   * Lost from an open stage it first asks why (LoseDialog), and moves once answered; from Won the
   * move goes straight to the API, whose refusal says what to do.
   */
  const move = async (deal: BoardDeal, to: Stage, byKeyboard: boolean, asked?: { reason: string | undefined }) => {
    const from = deals?.get(deal.id);
    if (!from || from.stage === to || pending.has(deal.id)) return;
    if (to === 'lost' && !isClosed(from.stage) && !asked) return setLosing({ deal: from, byKeyboard });
    setPending((p) => new Map(p).set(deal.id, { from, to }));
    setError('');
    say(`Moving ${from.title} to ${stageLabel(to)}…`);
    if (byKeyboard) focusCard(deal.id);
    const request = moveRequest(from, to, asked?.reason);
    try {
      const updated = await api<BoardDeal>(request.method, request.path, request.body);
      setDeals((d) => applyDealEvent(d, 'deal.updated', updated));
      await refreshSummary(); // the heads count the card where it is now before it stops counting as moving
      say(`Moved ${from.title} to ${stageLabel(to)}.`);
    } catch (err) {
      setError(`${from.title} was not moved to ${stageLabel(to)}: ${(err as Error).message}`);
    } finally {
      setPending((p) => {
        const next = new Map(p);
        next.delete(deal.id);
        return next;
      });
      if (byKeyboard) focusCard(deal.id);
    }
  };

  // The cards keep one onMove for good (deal-card.tsx draws a card again only when it changed); it
  // calls the move of the latest render, which sees the latest deals and moves in flight.
  const latestMove = useRef(move);
  latestMove.current = move;
  const onMove = useMemo(() => (deal: BoardDeal, to: Stage, byKeyboard: boolean) => void latestMove.current(deal, to, byKeyboard), []);

  return (
    <section>
      <header class="page-header">
        <h1>Deals</h1>
        {writable && (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            New deal
          </button>
        )}
      </header>
      <div class="board-toolbar">
        {props.views}
        <p role="status" class="muted board-said">
          {said}
        </p>
      </div>
      {(error || loadError) && (
        <p role="alert" class="error board-error">
          {error || loadError}
        </p>
      )}
      {!deals && !loadError && <p class="muted">Loading…</p>}
      {deals && summary && (
        <div class="board" aria-busy={pending.size > 0 ? 'true' : 'false'}>
          {DEAL_STAGES.map(({ value, label }) => (
            <BoardColumn
              key={value}
              stage={value as Stage}
              label={label}
              deals={columns.get(value) ?? []}
              head={heads.get(value as Stage) ?? { stage: value as Stage, count: 0, totals: [] }}
              hasMore={hasMore(value as Stage)}
              onLoadMore={() => loadMore(value as Stage)}
              stages={STAGE_CHOICES}
              pending={pending}
              writable={writable}
              onMove={onMove}
            />
          ))}
        </div>
      )}
      {losing && (
        <LoseDialog
          title={losing.deal.title}
          onLose={(reason) => {
            setLosing(null);
            void move(losing.deal, 'lost', losing.byKeyboard, { reason });
          }}
          onCancel={() => {
            setLosing(null);
            if (losing.byKeyboard) focusCard(losing.deal.id);
          }}
        />
      )}
      {creating && (
        <CreateDialog
          spec={dealSpec}
          path={dealSpec.path}
          onClose={() => setCreating(false)}
          onCreated={(d: BoardDeal) => {
            setDeals((all) => applyDealEvent(all, 'deal.created', d));
            void refreshSummary();
            say(`Created ${d.title} in ${stageLabel(d.stage)}.`);
          }}
        />
      )}
    </section>
  );
}
