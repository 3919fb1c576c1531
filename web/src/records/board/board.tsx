// The deal pipeline as a board (/dashboard/deals?view=board, issue #24): a column per stage with
// its count and value per currency, cards moved by drag and drop or by their `Move to` menu through
// the API's own transitions, kept live by the dashboard's one event stream.
//
// Size: every deal is fetched (a request per stage, side by side, 1,000 deals a page) so each
// column's count and totals are exact, but a column renders only its first CARDS_PER_PAGE cards,
// then "Show … more": a board of thousands of deals keeps a few hundred elements. Client names come from one list of clients, not a request per card.
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { all, api, can } from '../../api.js';
import { onLiveEvent, type LiveEvent } from '../../live.js';
import { isClosed, type Stage } from '../../../../src/domain/pipeline.js';
import { CreateDialog } from '../create-dialog.js';
import { clients as clientSpec } from '../resources/clients.js';
import { DEAL_STAGES, deals as dealSpec } from '../resources/deals.js';
import { applyDealEvent, groupByStage, moveRequest, type BoardDeal } from './board-model.js';
import { BoardColumn } from './board-column.js';
import { LoseDialog } from './lose-dialog.js';
import './board.css';

type Deals = ReadonlyMap<string, BoardDeal>;

const STAGE_IDS = DEAL_STAGES.map((s) => s.value);
const stageLabel = (stage: string): string => DEAL_STAGES.find((s) => s.value === stage)?.label ?? stage;
/** Sorts above every real updated_at: a card whose move is in flight sits on top of its new column. */
const IN_FLIGHT = '\uffff';

/** Puts the focus back on a card's `Move to` button once it has been drawn in its (new) column. */
function focusCard(id: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-deal="${CSS.escape(id)}"] [aria-haspopup="menu"]`)?.focus());
}

/** All deals and the clients' names, then every deal.* and client.* event folded in. */
function useBoardData(): { deals: Deals | null; setDeals: (f: (d: Deals) => Deals) => void; clientNames: ReadonlyMap<string, string>; loadError: string } {
  const [deals, setDealsState] = useState<Deals | null>(null);
  const [clientNames, setClientNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [loadError, setLoadError] = useState('');
  const setDeals = (f: (d: Deals) => Deals) => setDealsState((d) => (d ? f(d) : d));

  useEffect(() => {
    let loaded = false;
    const early: LiveEvent[] = []; // events that arrive while the lists load are applied after them
    const apply = (e: LiveEvent) => {
      const object = e.data.object as Record<string, any>;
      if (e.type.startsWith('deal.')) setDeals((d) => applyDealEvent(d, e.type, object as BoardDeal));
      else if (e.type === 'client.deleted') setClientNames((m) => withName(m, object.id, undefined));
      else if (e.type.startsWith('client.')) setClientNames((m) => withName(m, object.id, clientSpec.title(object)));
    };
    const stop = onLiveEvent((e) => (loaded ? apply(e) : early.push(e)));
    const clientList = can('clients:read') ? all<Record<string, any>>('/v1/clients').catch(() => []) : Promise.resolve([]);
    // A request per stage, side by side: a big board's pages arrive in parallel, not one after another.
    const dealLists = Promise.all(STAGE_IDS.map((stage) => all<BoardDeal>(`/v1/deals?stage=${stage}&sort=updated_at&order=desc`)));
    Promise.all([dealLists, clientList]).then(
      ([perStage, clientRecords]) => {
        setDealsState(new Map(perStage.flat().map((d) => [d.id, d])));
        setClientNames(new Map(clientRecords.map((c) => [c.id as string, clientSpec.title(c)])));
        loaded = true;
        early.forEach(apply);
      },
      (err: Error) => setLoadError(err.message),
    );
    return stop;
  }, []);
  return { deals, setDeals, clientNames, loadError };
}

function withName(names: ReadonlyMap<string, string>, id: string, name: string | undefined): ReadonlyMap<string, string> {
  const next = new Map(names);
  if (name === undefined) next.delete(id);
  else next.set(id, name);
  return next;
}

export function DealBoard(props: { views: ComponentChildren }) {
  const { deals, setDeals, clientNames, loadError } = useBoardData();
  const [pending, setPending] = useState<ReadonlyMap<string, Stage>>(new Map());
  const [error, setError] = useState('');
  const [said, say] = useState('');
  const [creating, setCreating] = useState(false);
  const [losing, setLosing] = useState<{ deal: BoardDeal; byKeyboard: boolean } | null>(null);
  const writable = can('deals:write');

  const columns = useMemo(() => {
    const shown = [...(deals?.values() ?? [])].map((d) => {
      const to = pending.get(d.id);
      return to ? { ...d, stage: to, updated_at: IN_FLIGHT } : d;
    });
    return groupByStage(shown, STAGE_IDS);
  }, [deals, pending]);

  /**
   * Moves a card at once, asks the API, and puts it back with the API's words when refused. Into
   * Lost from an open stage it first asks why (LoseDialog), and moves once answered; from Won the
   * move goes straight to the API, whose refusal says what to do.
   */
  const move = async (deal: BoardDeal, to: Stage, byKeyboard: boolean, asked?: { reason: string | undefined }) => {
    const from = deals?.get(deal.id);
    if (!from || from.stage === to || pending.has(deal.id)) return;
    if (to === 'lost' && !isClosed(from.stage) && !asked) return setLosing({ deal: from, byKeyboard });
    setPending((p) => new Map(p).set(deal.id, to));
    setError('');
    say(`Moving ${from.title} to ${stageLabel(to)}…`);
    if (byKeyboard) focusCard(deal.id);
    const request = moveRequest(from, to, asked?.reason);
    try {
      const updated = await api<BoardDeal>(request.method, request.path, request.body);
      setDeals((d) => applyDealEvent(d, 'deal.updated', updated));
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
      {deals && (
        <div class="board" aria-busy={pending.size > 0 ? 'true' : 'false'}>
          {DEAL_STAGES.map(({ value, label }) => (
            <BoardColumn
              key={value}
              stage={value as Stage}
              label={label}
              deals={columns.get(value) ?? []}
              stages={DEAL_STAGES as { value: Stage; label: string }[]}
              clientNames={clientNames}
              pending={pending}
              writable={writable}
              onMove={(deal, to, byKeyboard) => void move(deal, to, byKeyboard)}
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
            say(`Created ${d.title} in ${stageLabel(d.stage)}.`);
          }}
        />
      )}
    </section>
  );
}
