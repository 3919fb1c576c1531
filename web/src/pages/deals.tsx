import { useEffect, useState } from 'preact/hooks';
import { allows, api, type Page } from '../api.js';

interface Deal {
  id: string;
  title: string;
  value: number;
  currency: string;
  stage: string;
  client_id: string | null;
}

const STAGES = ['lead_in', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];
const OPEN = new Set(['lead_in', 'qualified', 'proposal', 'negotiation']);
const money = (deal: Deal) => new Intl.NumberFormat('en', { style: 'currency', currency: deal.currency }).format(deal.value);

/** The pipeline as a board by stage (every deal, paged in); open deals can be won or lost from their card. */
export function DealsPage({ scopes }: { scopes: string[] }) {
  const [deals, setDeals] = useState<Deal[]>([]);
  const [note, setNote] = useState('');
  const load = async () => {
    const all: Deal[] = [];
    let cursor: string | null = null;
    do {
      const page: Page<Deal> = await api('GET', `/v1/deals?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      all.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    setDeals(all);
  };
  useEffect(() => void load().catch((e: Error) => setNote(e.message)), []);
  const move = (deal: Deal, action: 'win' | 'lose') =>
    api('POST', `/v1/deals/${deal.id}/${action}`, {}).then(
      () => (setNote(`${deal.title}: ${action === 'win' ? 'won' : 'lost'}.`), load()),
      (e: Error) => setNote(e.message),
    );
  const writable = allows(scopes, 'deals:write');
  return (
    <>
      {note && <p role="status">{note}</p>}
      <div class="board">
        {STAGES.map((stage) => {
          const column = deals.filter((d) => d.stage === stage);
          return (
            <section key={stage} aria-label={`Stage ${stage}`}>
              <h2>
                {stage.replace('_', ' ')} <span class="muted">({column.length})</span>
              </h2>
              <ul>
                {column.map((deal) => (
                  <li key={deal.id} class="card">
                    <strong>{deal.title}</strong>
                    <span>{money(deal)}</span>
                    {writable && OPEN.has(stage) && (
                      <span class="actions">
                        <button type="button" onClick={() => move(deal, 'win')} aria-label={`Win ${deal.title}`}>Win</button>
                        <button type="button" onClick={() => move(deal, 'lose')} aria-label={`Lose ${deal.title}`}>Lose</button>
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </>
  );
}
