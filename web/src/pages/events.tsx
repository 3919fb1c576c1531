import { useEffect, useState } from 'preact/hooks';
import { api, newest } from '../api.js';
import { EVENT_TYPES } from '../event-types.js';
import { JsonView, when } from '../components/table.js';
import { UrlFilter } from '../components/search.js';
import { query } from '../router.js';
import { followStream } from '../stream.js';

interface Evt {
  id: string;
  type: string;
  created_at: string;
  data: { object: Record<string, unknown> };
}

/** The newest events, then a live tail: new events appear without a reload. The type filter is in the URL. */
export function Events() {
  const type = query('type');
  const [events, setEvents] = useState<Evt[]>([]);
  const [selected, setSelected] = useState<Evt | null>(null);
  const [message, setMessage] = useState('');
  useEffect(() => {
    const abort = new AbortController();
    const filter = type ? `&type=${encodeURIComponent(type)}` : '';
    newest<Evt>(`/v1/events${type ? `?type=${encodeURIComponent(type)}` : ''}`, 50).then((recent) => {
      setEvents([...recent].reverse());
      followStream(
        `/v1/events/stream?after=${encodeURIComponent(recent.at(-1)?.id ?? 'evt_')}${filter}`,
        (m) => setEvents((list) => (list.some((e) => e.id === m.id) ? list : [JSON.parse(m.data) as Evt, ...list].slice(0, 200))),
        abort.signal,
      );
    }, (e: Error) => setMessage(e.message));
    return () => abort.abort();
  }, [type]);
  const resend = async (e: Evt) => {
    try {
      const result = await api('POST', `/v1/events/${e.id}/resend`);
      setMessage(`Queued ${result.deliveries.length} deliveries of ${e.id}.`);
    } catch (err) {
      setMessage((err as Error).message);
    }
  };
  return (
    <section>
      <h1>Events</h1>
      <div class="filters">
        <UrlFilter name="type" label="Type" options={[...EVENT_TYPES]} />
      </div>
      {message && <p role="status">{message}</p>}
      <table>
        <caption>Events, newest first (live)</caption>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Id</th>
            <th scope="col">Time</th>
            <th scope="col">Resend</th>
          </tr>
        </thead>
        <tbody aria-live="polite">
          {events.map((e) => (
            <tr key={e.id} data-event-id={e.id}>
              <td>
                <button type="button" class="link" onClick={() => setSelected(e)}>{e.type}</button>
              </td>
              <td>{e.id}</td>
              <td>{when(e.created_at)}</td>
              <td>
                <button type="button" onClick={() => void resend(e)}>Resend</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {selected && <JsonView value={selected} label="Selected event" />}
    </section>
  );
}
