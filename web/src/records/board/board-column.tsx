// One stage of the board: its name, count and value per currency, its cards (deal-card.tsx: the
// first page, then a page from the API each time the column is scrolled near its end or "Show …
// more" is pressed), and a drop target for a dragged card.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Stage } from '../../../../src/domain/pipeline.js';
import { formatCount, formatMoney } from '../format.js';
import { CARDS_PER_PAGE } from './board-data.js';
import type { BoardDeal, StageSummary } from './board-model.js';
import { DEAL_DRAG, DealCard, draggedDeal } from './deal-card.js';

interface ColumnProps {
  stage: Stage;
  label: string;
  /** The cards loaded so far, in order; `head` counts and sums every deal of the stage. */
  deals: BoardDeal[];
  head: StageSummary;
  hasMore: boolean;
  onLoadMore: () => Promise<void>;
  stages: { value: Stage; label: string }[];
  pending: ReadonlyMap<string, unknown>;
  writable: boolean;
  onMove: (deal: BoardDeal, to: Stage, byKeyboard: boolean) => void;
}

export function BoardColumn(props: ColumnProps) {
  const { stage, label, deals, head } = props;
  const [over, setOver] = useState(false);
  const [loading, setLoading] = useState(false);
  // Cards drawn: a page at first, a page more each time. Live events can bring more cards than that
  // (a bulk import's thousands); they wait in memory, below the fold, for "Show more".
  const [shown, setShown] = useState(CARDS_PER_PAGE);
  const visible = deals.slice(0, shown);
  const headingId = `stage-${stage}`;
  const remaining = head.count - visible.length;
  const more = remaining > 0 && (deals.length > shown || props.hasMore) ? Math.min(CARDS_PER_PAGE, remaining) : 0;
  const loadMore = () => {
    if (loading) return;
    setShown(shown + CARDS_PER_PAGE);
    if (deals.length >= shown + CARDS_PER_PAGE || !props.hasMore) return; // in memory already
    setLoading(true);
    void props.onLoadMore().finally(() => setLoading(false));
  };
  const cardsEnd = useNearView(more > 0 && !loading, shown, loadMore);
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
        const deal = draggedDeal(e.dataTransfer);
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
      {visible.length > 0 ? (
        <ul class="cards" aria-labelledby={headingId}>
          {visible.map((d) => (
            <DealCard key={d.id} deal={d} busy={props.pending.has(d.id)} writable={props.writable} stages={props.stages} onMove={props.onMove} />
          ))}
          <li ref={cardsEnd} class="cards-end" aria-hidden="true" />
        </ul>
      ) : (
        // No card loaded: the column is empty, or every loaded card left it (then "Show more" follows).
        head.count === 0 && <p class="column-empty muted">{props.writable ? 'No deals. Drag one here.' : 'No deals.'}</p>
      )}
      <div class="column-foot">
        {more > 0 && (
          <button type="button" class="quiet show-more" aria-label={`Show ${more} more in ${label}`} disabled={loading} onClick={loadMore}>
            {loading ? 'Loading…' : `Show ${more} more`}
          </button>
        )}
      </div>
    </section>
  );
}

/**
 * Calls `onNear` when the element it returns a ref for comes within a card's height of its
 * scrolling list's visible part, while `active` (and again after each page, `shown`, if it still is): the column's next page is asked for before the
 * reader reaches its end (and at once when the cards do not fill a tall column).
 */
function useNearView(active: boolean, shown: number, onNear: () => void) {
  const end = useRef<HTMLLIElement>(null);
  const latest = useRef(onNear);
  latest.current = onNear;
  useEffect(() => {
    const target = end.current;
    if (!active || !target) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && latest.current(), {
      root: target.parentElement,
      rootMargin: '0px 0px 150px 0px',
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [active, shown]); // observed afresh after each page: still in view, the column asks for one more
  return end;
}
