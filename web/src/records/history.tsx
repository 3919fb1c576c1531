// A record's history: its events, newest first (GET /v1/events?object_id=, docs/reference/events.md#reading-events), then live.
import { useEffect, useState } from 'preact/hooks';
import { newest } from '../api.js';
import { onLiveEvent, type LiveEvent } from '../live.js';
import type { ResourceSpec } from './describe.js';
import { Time } from './fields.js';
import { describeChange } from './history-text.js';

const SHOWN = 100;

/** This record's newest events, newest first. */
function recordEvents(record: { id: string }): Promise<LiveEvent[]> {
  return newest<LiveEvent>(`/v1/events?object_id=${encodeURIComponent(record.id)}`, SHOWN);
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
    recordEvents(record).then(
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
