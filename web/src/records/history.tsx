// A record's history: its events, newest first, then live. The API's GET /v1/events has no
// filter by record in this version (API.md §15 plans `object_id`), so recordEvents() asks for
// the resource's event types since the record was made and keeps those about this record.
import { useEffect, useState } from 'preact/hooks';
import { newest } from '../api.js';
import { EVENT_TYPES } from '../event-types.js';
import { onLiveEvent, type LiveEvent } from '../live.js';
import type { ResourceSpec } from './describe.js';
import { Time } from './fields.js';
import { describeChange } from './history-text.js';

const SHOWN = 100;
const EVENT_TYPE_SET: ReadonlySet<string> = new Set(EVENT_TYPES);

/** This record's events, newest first. */
export async function recordEvents(spec: ResourceSpec, record: { id: string; created_at: string }): Promise<LiveEvent[]> {
  // created_after is exclusive; a millisecond earlier includes the record's own *.created.
  const since = new Date(Date.parse(record.created_at) - 1).toISOString();
  const known = [...EVENT_TYPE_SET].filter((t) => t.startsWith(`${spec.eventPrefix}.`)).join(',');
  const events = await newest<LiveEvent>(`/v1/events?type=${encodeURIComponent(known)}&created_after=${encodeURIComponent(since)}`, Number.POSITIVE_INFINITY);
  return events.filter((e) => e.data.object.id === record.id).reverse().slice(0, SHOWN);
}

/** Newest first, each event once (one can come from the list and from the stream). */
function merge(list: LiveEvent[], more: LiveEvent[]): LiveEvent[] {
  const byId = new Map(list.map((e) => [e.id, e]));
  for (const e of more) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, SHOWN);
}

/** `onEvent` is called for each new live event of the record (the page reloads the record then). */
export function RecordHistory(props: { spec: ResourceSpec; record: { id: string; created_at: string }; onEvent: (e: LiveEvent) => void }) {
  const { spec, record } = props;
  const [events, setEvents] = useState<LiveEvent[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    // Listen first, then load: an event in between is in one or the other (or both).
    const stop = onLiveEvent((e) => {
      if (e.data.object.id !== record.id) return;
      setEvents((list) => merge(list ?? [], [e]));
      props.onEvent(e);
    });
    recordEvents(spec, record).then(
      (found) => setEvents((list) => merge(list ?? [], found)),
      (e: Error) => setError(e.message),
    );
    return stop;
  }, [record.id]);
  return (
    <section class="panel" aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {error && <p class="error">{error}</p>}
      {events === null && !error && <p class="muted">Loading…</p>}
      {events?.length === 0 && <p class="muted">No events yet.</p>}
      <ol class="history" aria-label={`Events of this ${spec.singular}, newest first`} aria-live="polite">
        {(events ?? []).map((e) => {
          const { what, changes } = describeChange(spec, e);
          return (
            <li key={e.id} data-event-id={e.id}>
              <span class="what">{what}</span> <Time iso={e.created_at} />
              {changes && <p class="changes">{changes}</p>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
