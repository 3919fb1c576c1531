import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Link, recordUrl } from '../components/link.js';
import { formatMoney } from '../records/format.js';
import { RecordList } from '../records/list.js';
import { DEAL_STAGES, deals } from '../records/resources/deals.js';
import { RecordPage } from '../records/show.js';
import { query, recordId, setQuery } from '../router.js';

interface Deal {
  id: string;
  title: string;
  value: number;
  currency: string;
  stage: string;
  created_at: string;
}

/** The pipeline as a board by stage; open deals can be won or lost from it. */
function Board() {
  const [list, setList] = useState<Deal[]>([]);
  const [reload, setReload] = useState(0);
  const [error, setError] = useState('');
  useEffect(() => {
    api<{ data: Deal[] }>('GET', '/v1/deals?limit=1000').then((p) => setList(p.data), (e: Error) => setError(e.message));
  }, [reload]);
  const act = async (d: Deal, action: 'win' | 'lose') => {
    try {
      await api('POST', `/v1/deals/${d.id}/${action}`);
      setReload(reload + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div class="board">
      {error && <p role="alert" class="error">{error}</p>}
      {DEAL_STAGES.map(({ value: stage, label }) => (
        <section key={stage} class="column" aria-label={`Stage ${stage}`}>
          <h2>{label}</h2>
          <ul>
            {list
              .filter((d) => d.stage === stage)
              .map((d) => (
                <li key={d.id} class="card">
                  <p>
                    <Link href={recordUrl('deals', d.id)}>{d.title}</Link>
                  </p>
                  <p class="muted num">{formatMoney(d.value, d.currency)}</p>
                  {stage !== 'won' && stage !== 'lost' && (
                    <span class="actions">
                      <button type="button" onClick={() => void act(d, 'win')} aria-label={`Win ${d.title}`}>Win</button>
                      <button type="button" onClick={() => void act(d, 'lose')} aria-label={`Lose ${d.title}`}>Lose</button>
                    </span>
                  )}
                </li>
              ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** /dashboard/deals (a list, or ?view=board) and /dashboard/deals/{id}. */
export function Deals() {
  const id = recordId();
  if (id) return <RecordPage key={id} spec={deals} id={id} />;
  const board = query('view') === 'board';
  const views = (
    <div class="actions view-switch" role="group" aria-label="View">
      <button type="button" aria-pressed={!board} onClick={() => setQuery({ view: '' })}>List</button>
      <button type="button" aria-pressed={board} onClick={() => setQuery({ view: 'board' })}>Board</button>
    </div>
  );
  if (!board) return <RecordList spec={deals} toolbar={views} />;
  return (
    <section>
      <header class="page-header">
        <h1>Deals</h1>
      </header>
      {views}
      <Board />
    </section>
  );
}
