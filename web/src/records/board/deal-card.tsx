// A card of the board: the deal's name (a link to its page), its client's name and its value, and a
// `Move to` menu, the keyboard's way to drag. Drawn again only when what it shows changes, so a page
// loaded or a burst of events folded in redraws the cards it touched, not every card on the board.
import { Component } from 'preact';
import { can } from '../../api.js';
import type { Stage } from '../../../../src/domain/pipeline.js';
import { Link, recordUrl } from '../../components/link.js';
import { MenuButton } from '../../components/menu-button.js';
import { formatMoney } from '../format.js';
import { NameStatus } from '../name-status.js';
import { useRecordName } from '../relations.js';
import type { BoardDeal } from './board-model.js';

/** The drag's payload type: only our own cards are accepted as drops (not links or files). */
export const DEAL_DRAG = 'application/x-crm-deal';

/** The deal a drag started with (the drop lands on another column's component). */
const draggedDeals = new Map<string, BoardDeal>();

/** The dragged deal, by the id the drag carries. */
export function draggedDeal(data: DataTransfer | null): BoardDeal | undefined {
  const id = data?.getData(DEAL_DRAG);
  return id ? draggedDeals.get(id) : undefined;
}

interface CardProps {
  deal: BoardDeal;
  /** Its last move has no answer yet. */
  busy: boolean;
  writable: boolean;
  stages: { value: Stage; label: string }[];
  /** Must keep its identity across renders: a card is not drawn again for a new one. */
  onMove: (deal: BoardDeal, to: Stage, byKeyboard: boolean) => void;
}

export class DealCard extends Component<CardProps> {
  override shouldComponentUpdate(next: CardProps): boolean {
    const now = this.props;
    return next.deal !== now.deal || next.busy !== now.busy || next.writable !== now.writable || next.stages !== now.stages;
  }

  override render({ deal, busy, writable, stages, onMove }: CardProps) {
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
        <p class="deal-client">{deal.client_id ? <ClientName id={deal.client_id} /> : <span class="muted">No client</span>}</p>
        <div class="deal-foot">
          <span class="deal-value num">{formatMoney(deal.value, deal.currency)}</span>
          {writable && (
            <MenuButton
              // Busy: its last move has no answer yet, which is why the card cannot be picked up now.
              label={busy ? 'Moving…' : 'Move to'}
              class="move-to"
              describedBy={titleId}
              disabled={busy}
              items={stages.filter((s) => s.value !== deal.stage).map((s) => ({ label: s.label, onSelect: () => onMove(deal, s.value, true) }))}
            />
          )}
        </div>
      </li>
    );
  }
}

/**
 * The card's client, by name (relations.ts: the board asked for its cards' clients in one request
 * before drawing them). Its own component: a renamed client redraws this line, not the card.
 */
function ClientName(props: { id: string }) {
  // Without clients:read every lookup would be refused: say so instead of asking.
  if (!can('clients:read')) return <span class="muted">A client (needs clients:read)</span>;
  return <FetchedClientName id={props.id} />;
}

function FetchedClientName(props: { id: string }) {
  const lookup = useRecordName('clients', props.id);
  return lookup.state === 'found' ? <span title={lookup.name}>{lookup.name}</span> : <NameStatus lookup={lookup} id={props.id} />;
}
