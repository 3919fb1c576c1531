import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { ListTable, when } from '../components/table.js';
import { UrlFilter, withFilters } from '../components/search.js';
import { query, setQuery } from '../router.js';

interface Deal {
  id: string;
  title: string;
  value: number;
  currency: string;
  stage: string;
  created_at: string;
}
const STAGES = ['lead_in', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];

/** The pipeline as a board by stage; open deals can be won or lost from it. */
function Board() {
  const [deals, setDeals] = useState<Deal[]>([]);
  const [reload, setReload] = useState(0);
  const [error, setError] = useState('');
  useEffect(() => {
    api<{ data: Deal[] }>('GET', '/v1/deals?limit=1000').then((p) => setDeals(p.data), (e: Error) => setError(e.message));
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
      {STAGES.map((stage) => (
        <section key={stage} class="column" aria-label={`Stage ${stage}`}>
          <h2>{stage}</h2>
          <ul>
            {deals
              .filter((d) => d.stage === stage)
              .map((d) => (
                <li key={d.id} class="card">
                  <p>{d.title}</p>
                  <p class="muted">{`${d.value} ${d.currency}`}</p>
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

export function Deals() {
  const board = query('view') === 'board';
  return (
    <section>
      <h1>Deals</h1>
      <div class="filters">
        <button type="button" aria-pressed={!board} onClick={() => setQuery({ view: '' })}>List</button>
        <button type="button" aria-pressed={board} onClick={() => setQuery({ view: 'board' })}>Board</button>
        {!board && <UrlFilter name="stage" label="Stage" options={STAGES} />}
        {!board && <UrlFilter name="client_id" label="Client id" />}
      </div>
      {board ? (
        <Board />
      ) : (
        <ListTable<Deal>
          caption="Deals"
          path={withFilters('/v1/deals', ['stage', 'client_id'])}
          columns={[
            { label: 'Title', value: (d) => d.title },
            { label: 'Value', value: (d) => `${d.value} ${d.currency}` },
            { label: 'Stage', value: (d) => d.stage },
            { label: 'Created', value: (d) => when(d.created_at) },
          ]}
        />
      )}
    </section>
  );
}
