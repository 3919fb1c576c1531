import { useEffect, useState } from 'preact/hooks';
import { allows, api, type Page } from '../api.js';

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  status: 'enabled' | 'disabled';
  secret?: string;
}

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: string;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: string | null;
  attempted_at: string | null;
}

const time = (t: string | null) => (t ? t.slice(0, 19).replace('T', ' ') : '—');

/** A delivery test: the newest real event of the type, sent again to this endpoint through the delivery queue. */
async function sendTest(endpoint: Endpoint, type: string): Promise<string> {
  const events = await api<Page<{ id: string }>>('GET', `/v1/events?type=${encodeURIComponent(type)}&limit=1000`);
  const newest = events.data.at(-1);
  if (!newest) return `No ${type} event in the last 30 days to send: cause one first (e.g. crm trigger ${type}).`;
  await api('POST', `/v1/events/${newest.id}/resend`, { endpoint_id: endpoint.id });
  return `${newest.id} (${type}) queued for ${endpoint.url}.`;
}

function Deliveries({ endpoint }: { endpoint: Endpoint }) {
  const [rows, setRows] = useState<Delivery[]>([]);
  const load = () => api<Page<Delivery>>('GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries?limit=1000`).then((p) => setRows(p.data.slice(-50).reverse()));
  useEffect(() => {
    void load();
    const timer = setInterval(load, 2000);
    return () => clearInterval(timer);
  }, [endpoint.id]);
  return (
    <table>
      <caption>Deliveries to {endpoint.url} (newest first, every attempt)</caption>
      <thead>
        <tr><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Status</th><th scope="col">Code</th><th scope="col">ms</th><th scope="col">Error</th><th scope="col">Tried</th><th scope="col">Next</th></tr>
      </thead>
      <tbody>
        {rows.map((d) => (
          <tr key={d.id}>
            <td>{d.event_type} <code>{d.event_id}</code></td>
            <td>{d.attempt}</td>
            <td>{d.status}</td>
            <td>{d.status_code ?? '—'}</td>
            <td>{d.duration_ms ?? '—'}</td>
            <td>{d.error ?? ''}</td>
            <td>{time(d.attempted_at)}</td>
            <td>{time(d.next_attempt_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Webhook endpoints: add, disable or enable, delete, rotate the secret (shown once), test, deliveries. */
export function WebhooksPage({ scopes }: { scopes: string[] }) {
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
  const [selected, setSelected] = useState<Endpoint | undefined>();
  const [secret, setSecret] = useState<Endpoint | undefined>();
  const [note, setNote] = useState('');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('*');
  const [testType, setTestType] = useState('lead.created');
  const writable = allows(scopes, 'webhooks:write');
  const load = () => api<Page<Endpoint>>('GET', '/v1/webhook_endpoints?limit=100').then((p) => setEndpoints(p.data), (e: Error) => setNote(e.message));
  useEffect(() => void load(), []);
  const act = (work: Promise<unknown>, done?: (r: any) => void) => work.then((r) => (done?.(r), load()), (e: Error) => setNote(e.message));

  const add = (event: Event) => {
    event.preventDefault();
    const enabled_events = events.split(',').map((t) => t.trim()).filter(Boolean);
    act(api<Endpoint>('POST', '/v1/webhook_endpoints', { url, enabled_events }), (created: Endpoint) => (setSecret(created), setUrl('')));
  };

  return (
    <>
      {secret && (
        <section class="secret" role="status" aria-label="Signing secret">
          <p>Signing secret of <strong>{secret.url}</strong>: copy it now, it is shown <em>once</em>.</p>
          <code>{secret.secret}</code>
          <button type="button" onClick={() => navigator.clipboard.writeText(secret.secret ?? '')}>Copy secret</button>
          <button type="button" onClick={() => setSecret(undefined)}>Done</button>
        </section>
      )}
      {note && <p role="status">{note}</p>}
      <table>
        <caption class="sr-only">Webhook endpoints</caption>
        <thead>
          <tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col"><span class="sr-only">Actions</span></th></tr>
        </thead>
        <tbody>
          {endpoints.map((e) => (
            <tr key={e.id}>
              <td><button type="button" class="link" onClick={() => setSelected(e)}>{e.url}</button></td>
              <td>{e.enabled_events.join(', ')}</td>
              <td>{e.status}</td>
              <td>
                {writable && (
                  <>
                    <button type="button" onClick={() => act(api('PATCH', `/v1/webhook_endpoints/${e.id}`, { status: e.status === 'enabled' ? 'disabled' : 'enabled' }))}>
                      {e.status === 'enabled' ? 'Disable' : 'Enable'}
                    </button>
                    <button type="button" onClick={() => act(api<Endpoint>('POST', `/v1/webhook_endpoints/${e.id}/rotate_secret`, {}), (r: Endpoint) => setSecret(r))}>Rotate secret</button>
                    <button type="button" onClick={() => act(api('DELETE', `/v1/webhook_endpoints/${e.id}`), () => setSelected(undefined))}>Delete</button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {writable && (
        <form class="create" onSubmit={add}>
          <h2>Add an endpoint</h2>
          <label>URL <input required type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="http://localhost:3000/webhooks" /></label>
          <label>Event types (comma-separated, * for all) <input value={events} onInput={(e) => setEvents(e.currentTarget.value)} /></label>
          <button type="submit">Add endpoint</button>
        </form>
      )}
      {selected && (
        <section class="detail" aria-label="Endpoint detail">
          <h2>{selected.url}</h2>
          {writable && (
            <form class="filters" onSubmit={(e) => (e.preventDefault(), sendTest(selected, testType).then(setNote, (err: Error) => setNote(err.message)))}>
              <label>Event type <input value={testType} onInput={(e) => setTestType(e.currentTarget.value)} /></label>
              <button type="submit">Send test event</button>
            </form>
          )}
          <Deliveries endpoint={selected} />
        </section>
      )}
    </>
  );
}
