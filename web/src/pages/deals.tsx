import { DealBoard } from '../records/board/board.js';
import { RecordList } from '../records/list.js';
import { deals } from '../records/resources/deals.js';
import { RecordPage } from '../records/show.js';
import { query, recordId, setQuery } from '../router.js';

/** /dashboard/deals (a list, or ?view=board: the pipeline) and /dashboard/deals/{id}. */
export function Deals() {
  const id = recordId();
  if (id) return <RecordPage key={id} spec={deals} id={id} />;
  const board = query('view') === 'board';
  const views = (
    <div class="actions view-switch" role="group" aria-label="View">
      <button type="button" aria-pressed={!board} onClick={() => setQuery({ view: '' })}>
        List
      </button>
      <button type="button" aria-pressed={board} onClick={() => setQuery({ view: 'board' })}>
        Board
      </button>
    </div>
  );
  return board ? <DealBoard views={views} /> : <RecordList spec={deals} toolbar={views} />;
}
