import { useEffect, useState } from 'preact/hooks';
import { allows, api, type Page } from '../api.js';
import { setQuery } from '../router.js';

interface CrmEvent {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

const MAX_SHOWN = 200;

/**
 * Reads the event stream (Server-Sent Events) with fetch, not EventSource: EventSource cannot send the
 * X-CRM-Dashboard header that lets the session cookie count.
 */
async function follow(type: string, after: string, signal: AbortSignal, onEvent: (e: CrmEvent) => void): Promise<void> {
  const query = new URLSearchParams({ after });
  if (type) query.set('type', type);
  const response = await fetch(`/v1/events/stream?${query}`, { headers: { 'x-crm-dashboard': '1' }, credentials: 'same-origin', signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split('\n').find((line) => line.startsWith('data: '));
      if (data) onEvent(JSON.parse(data.slice(6)) as CrmEvent);
    }
  }
}

/** The event log, newest first, with new events appearing live; the type filter lives in the URL. */
export function EventsPage({ url, scopes }: { url: URL; scopes: string[] }) {
  const type = url.searchParams.get('type') ?? '';
  const [events, setEvents] = useState<CrmEvent[]>([]);
  const [selected, setSelected] = useState<CrmEvent | undefined>();
  const [note, setNote] = useState('');
  useEffect(() => {
    const abort = new AbortController();
    const query = new URLSearchParams({ limit: '100' });
    if (type) query.set('type', type);
    (async () => {
      // The recent past first (a page, newest last as listed), then everything after it, live.
      const recent: CrmEvent[] = [];
      let cursor: string | null = null;
      do {
        const page: Page<CrmEvent> = await api('GET', `/v1/events?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        recent.push(...page.data);
        cursor = page.next_cursor;
      } while (cursor && recent.length < 1000);
      setEvents(recent.slice(-MAX_SHOWN).reverse());
      await follow(type, recent.at(-1)?.id ?? 'evt_', abort.signal, (e) => setEvents((list) => [e, ...list].slice(0, MAX_SHOWN)));
    })().catch((error: Error) => {
      if (!abort.signal.aborted) setNote(`The live stream stopped: ${error.message}. Reload to follow again.`);
    });
    return () => abort.abort();
  }, [type]);

  const resend = (event: CrmEvent) =>
    api<{ deliveries: number }>('POST', `/v1/events/${event.id}/resend`, {}).then(
      (r) => setNote(`${event.id} queued again for ${r.deliveries ?? 'its'} endpoint(s).`),
      (e: Error) => setNote(e.message),
    );

  return (
    <>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Type
          <input type="search" value={type} placeholder="e.g. deal.won" onChange={(e) => setQuery('type', e.currentTarget.value.trim())} />
        </label>
      </form>
      {note && <p role="status">{note}</p>}
      <table aria-live="polite">
        <caption class="sr-only">Events, newest first</caption>
        <thead>
          <tr><th scope="col">Time</th><th scope="col">Type</th><th scope="col">Event</th></tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id}>
              <td>{event.created_at.slice(11, 23)}</td>
              <td>{event.type}</td>
              <td>
                <button type="button" class="link" onClick={() => setSelected(event)}>{event.id}</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {selected && (
        <section class="detail" aria-label="Event detail">
          <h2>{selected.type}</h2>
          {allows(scopes, 'webhooks:write') && <button type="button" onClick={() => resend(selected)}>Resend to webhook endpoints</button>}
          <pre>{JSON.stringify(selected, null, 2)}</pre>
        </section>
      )}
    </>
  );
}
