import { useEffect, useState } from 'preact/hooks';
import { api, newest } from '../api.js';
import { EVENT_TYPES } from '../event-types.js';
import { JsonView } from '../components/table.js';
import { UrlFilter } from '../components/search.js';
import { query } from '../router.js';
import { onLiveEvent, type LiveEvent } from '../live.js';
import { Time } from '../records/fields.js';

type Evt = LiveEvent;

const SHOWN = 200;

/** Newest first, each event once (an event can come both from the list and from the stream). */
function merge(list: Evt[], more: Evt[]): Evt[] {
  const byId = new Map(list.map((e) => [e.id, e]));
  for (const e of more) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, SHOWN);
}

/** The newest events, then a live tail: new events appear without a reload. The type filter is in the URL. */
export function Events() {
  const type = query('type');
  const [events, setEvents] = useState<Evt[]>([]);
  const [selected, setSelected] = useState<Evt | null>(null);
  const [message, setMessage] = useState('');
  useEffect(() => {
    setEvents([]);
    // Listen first, then load the newest: an event in between is in one or the other (or both).
    const stop = onLiveEvent((e) => {
      if (!type || e.type === type) setEvents((list) => merge(list, [e]));
    });
    newest<Evt>(`/v1/events${type ? `?type=${encodeURIComponent(type)}` : ''}`, 50).then(
      (recent) => setEvents((list) => merge(list, recent)),
      (e: Error) => setMessage(e.message),
    );
    return stop;
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
      <div class="table-wrap">
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
                  <button type="button" class="link" onClick={() => setSelected(e)}>
                    {e.type}
                  </button>
                </td>
                <td>{e.id}</td>
                <td>
                  <Time iso={e.created_at} />
                </td>
                <td>
                  <button type="button" onClick={() => void resend(e)}>
                    Resend
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {selected && <JsonView value={selected} label="Selected event" />}
    </section>
  );
}
