// One stage of the board: its name, count and value per currency, its cards (the first page, then
// "Show … more", a page from the API each), and a drop target for a dragged card. A card is the deal's name (a link to its
// page), its client's name and its value, and a `Move to` menu, the keyboard's way to drag.
import { useState } from 'preact/hooks';
import { can } from '../../api.js';
import type { Stage } from '../../../../src/domain/pipeline.js';
import { Link, recordUrl } from '../../components/link.js';
import { MenuButton } from '../../components/menu-button.js';
import { formatCount, formatMoney } from '../format.js';
import { useRecordName } from '../relations.js';
import { CARDS_PER_PAGE } from './board-data.js';
import type { BoardDeal, StageSummary } from './board-model.js';
/** The drag's payload type: only our own cards are accepted as drops (not links or files). */
const DEAL_DRAG = 'application/x-crm-deal';

interface ColumnProps {
  stage: Stage;
  label: string;
  /** The cards loaded so far, in order; `head` counts and sums every deal of the stage. */
  deals: BoardDeal[];
  head: StageSummary;
  hasMore: boolean;
  onLoadMore: () => Promise<void>;
  stages: { value: Stage; label: string }[];
  clientNames: ReadonlyMap<string, string>;
  pending: ReadonlyMap<string, unknown>;
  writable: boolean;
  onMove: (deal: BoardDeal, to: Stage, byKeyboard: boolean) => void;
}

export function BoardColumn(props: ColumnProps) {
  const { stage, label, deals, head } = props;
  const [over, setOver] = useState(false);
  const [loading, setLoading] = useState(false);
  const headingId = `stage-${stage}`;
  const more = props.hasMore ? Math.min(CARDS_PER_PAGE, head.count - deals.length) : 0;
  const accepts = (e: DragEvent) => props.writable && !!e.dataTransfer?.types.includes(DEAL_DRAG);
  return (
    <section
      class={over ? 'board-column drop-over' : 'board-column'}
      aria-labelledby={headingId}
      data-stage={stage}
      onDragOver={(e) => {
        if (!accepts(e)) return;
        e.preventDefault(); // a drop is allowed here
        e.dataTransfer!.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (!(e.currentTarget as HTMLElement).contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        setOver(false);
        if (!accepts(e)) return;
        e.preventDefault();
        const deal = draggedDeal(e);
        if (deal) props.onMove(deal, stage, false);
      }}
    >
      <header class="column-head">
        <h2 id={headingId}>{label}</h2>
        <p class="column-count">{head.count === 1 ? '1 deal' : `${formatCount(head.count)} deals`}</p>
        {head.totals.length > 0 && (
          <ul class="column-totals" aria-label={`Value of ${label}`}>
            {head.totals.map((t) => (
              <li key={t.currency} class="num">
                {formatMoney(t.value, t.currency)}
              </li>
            ))}
          </ul>
        )}
      </header>
      {deals.length > 0 ? (
        <ul class="cards" aria-labelledby={headingId}>
          {deals.map((d) => (
            <DealCard key={d.id} deal={d} {...props} busy={props.pending.has(d.id)} />
          ))}
        </ul>
      ) : (
        // No card loaded: the column is empty, or every loaded card left it (then "Show more" follows).
        head.count === 0 && <p class="column-empty muted">{props.writable ? 'No deals. Drag one here.' : 'No deals.'}</p>
      )}
      <div class="column-foot">
        {more > 0 && (
          <button
            type="button"
            class="quiet show-more"
            aria-label={`Show ${more} more in ${label}`}
            disabled={loading}
            onClick={() => {
              setLoading(true);
              void props.onLoadMore().finally(() => setLoading(false));
            }}
          >
            {loading ? 'Loading…' : `Show ${more} more`}
          </button>
        )}
      </div>
    </section>
  );
}

/** The deal a drag started with (the drop lands on another column's component). */
const draggedDeals = new Map<string, BoardDeal>();

/** The dragged deal, by the id the drag carries. */
function draggedDeal(e: DragEvent): BoardDeal | undefined {
  const id = e.dataTransfer?.getData(DEAL_DRAG);
  return id ? draggedDeals.get(id) : undefined;
}

function DealCard(props: ColumnProps & { deal: BoardDeal; busy: boolean }) {
  const { deal, writable, busy } = props;
  const client = props.clientNames.get(deal.client_id ?? '');
  const titleId = `deal-${deal.id}-title`;
  return (
    <li
      class={busy ? 'deal-card busy' : 'deal-card'}
      data-deal={deal.id}
      draggable={writable && !busy}
      aria-busy={busy ? 'true' : undefined}
      onDragStart={(e) => {
        draggedDeals.clear();
        draggedDeals.set(deal.id, deal);
        e.dataTransfer!.setData(DEAL_DRAG, deal.id);
        e.dataTransfer!.effectAllowed = 'move';
        (e.currentTarget as HTMLElement).classList.add('dragging');
      }}
      onDragEnd={(e) => (e.currentTarget as HTMLElement).classList.remove('dragging')}
    >
      <Link href={recordUrl('deals', deal.id)} class="deal-title" draggable={false} id={titleId}>
        {deal.title}
      </Link>
      <p class="deal-client" title={client}>{deal.client_id ? (client ?? <ClientName id={deal.client_id} />) : <span class="muted">No client</span>}</p>
      <div class="deal-foot">
        <span class="deal-value num">{formatMoney(deal.value, deal.currency)}</span>
        {writable && (
          <MenuButton
            // Busy: its last move has no answer yet, which is why the card cannot be picked up now.
            label={busy ? 'Moving…' : 'Move to'}
            class="move-to"
            describedBy={titleId}
            disabled={busy}
            items={props.stages.filter((s) => s.value !== deal.stage).map((s) => ({ label: s.label, onSelect: () => props.onMove(deal, s.value, true) }))}
          />
        )}
      </div>
    </li>
  );
}

/** A client the board's list did not have (created since): its name fetched once. */
function ClientName(props: { id: string }) {
  // Without clients:read every lookup would be refused: say so instead of asking per card.
  if (!can('clients:read')) return <span class="muted">A client (needs clients:read)</span>;
  return <FetchedClientName id={props.id} />;
}

function FetchedClientName(props: { id: string }) {
  const name = useRecordName('clients', props.id);
  return <>{name ?? <span class="muted">{name === null ? 'Unknown client' : '…'}</span>}</>;
}
