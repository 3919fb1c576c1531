import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { setQuery } from '../router.js';

interface Lead {
  id: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  email: string | null;
  status: string;
  created_at: string;
}

const STATUSES = ['', 'new', 'contacted', 'qualified', 'unqualified', 'converted'];

/** Leads, cursor-paged, filtered by status and email (both kept in the URL); a lead's detail beside. */
export function LeadsPage({ url }: { url: URL }) {
  const status = url.searchParams.get('status') ?? '';
  const email = url.searchParams.get('email') ?? '';
  const [pages, setPages] = useState<Page<Lead>[]>([]);
  const [error, setError] = useState('');
  const [selected, setSelected] = useState<Lead | undefined>();
  const load = (cursor?: string) => {
    const query = new URLSearchParams({ limit: '25' });
    if (status) query.set('status', status);
    if (email) query.set('email', email);
    if (cursor) query.set('cursor', cursor);
    api<Page<Lead>>('GET', `/v1/leads?${query}`).then((page) => setPages((p) => (cursor ? [...p, page] : [page])), (e: Error) => setError(e.message));
  };
  useEffect(() => load(), [status, email]);
  const leads = pages.flatMap((p) => p.data);
  const next = pages.at(-1)?.next_cursor;
  return (
    <>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={status} onChange={(e) => setQuery('status', e.currentTarget.value)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>{s || 'any'}</option>
            ))}
          </select>
        </label>
        <label>
          Email
          <input type="search" value={email} onChange={(e) => setQuery('email', e.currentTarget.value)} />
        </label>
      </form>
      {error && <p role="alert" class="error">{error}</p>}
      <table>
        <caption class="sr-only">Leads</caption>
        <thead>
          <tr><th scope="col">Name</th><th scope="col">Company</th><th scope="col">Email</th><th scope="col">Status</th><th scope="col">Created</th></tr>
        </thead>
        <tbody>
          {leads.map((lead) => (
            <tr key={lead.id}>
              <td>
                <button type="button" class="link" onClick={() => setSelected(lead)}>
                  {[lead.first_name, lead.last_name].filter(Boolean).join(' ') || lead.id}
                </button>
              </td>
              <td>{lead.company}</td>
              <td>{lead.email}</td>
              <td>{lead.status}</td>
              <td>{lead.created_at.slice(0, 16).replace('T', ' ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {next && <button type="button" onClick={() => load(next)}>Load more</button>}
      {selected && (
        <section class="detail" aria-label="Lead detail">
          <h2>{[selected.first_name, selected.last_name].filter(Boolean).join(' ') || selected.id}</h2>
          <pre>{JSON.stringify(selected, null, 2)}</pre>
        </section>
      )}
    </>
  );
}
