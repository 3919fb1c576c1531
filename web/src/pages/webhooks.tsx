import { useState } from 'preact/hooks';
import { api, newest } from '../api.js';
import { confirmAction, confirmWithOption } from '../components/confirm.js';
import { EVENT_TYPES } from '../event-types.js';
import { CopyButton, ListTable } from '../components/table.js';
import { Time } from '../records/fields.js';

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  status: 'enabled' | 'disabled';
  created_at: string;
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

function EndpointForm(props: { endpoint?: Endpoint; onDone: (secret?: string) => void }) {
  const [url, setUrl] = useState(props.endpoint?.url ?? '');
  const [description, setDescription] = useState(props.endpoint?.description ?? '');
  const [events, setEvents] = useState<string[]>(props.endpoint?.enabled_events ?? ['*']);
  const [error, setError] = useState('');
  const toggle = (t: string) => setEvents(events.includes(t) ? events.filter((e) => e !== t) : [...events.filter((e) => e !== '*'), t]);
  const submit = async (e: Event) => {
    e.preventDefault();
    const body = { url, description: description || undefined, enabled_events: events.length ? events : ['*'] };
    try {
      if (props.endpoint) {
        await api('PATCH', `/v1/webhook_endpoints/${props.endpoint.id}`, body);
        props.onDone();
      } else {
        const made = await api('POST', '/v1/webhook_endpoints', body);
        props.onDone(made.secret);
      }
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const prefix = props.endpoint ? `edit-${props.endpoint.id}` : 'new';
  return (
    <form onSubmit={submit} class="card">
      <h2>{props.endpoint ? 'Edit endpoint' : 'Add an endpoint'}</h2>
      <label for={`${prefix}-url`}>Endpoint URL</label>
      <input id={`${prefix}-url`} type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} required />
      <label for={`${prefix}-description`}>Description</label>
      <input id={`${prefix}-description`} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      <fieldset>
        <legend>Events to send</legend>
        <label class="check">
          <input type="checkbox" checked={events.includes('*')} onChange={() => setEvents(events.includes('*') ? [] : ['*'])} /> All events
        </label>
        {EVENT_TYPES.map((t) => (
          <label class="check" key={t}>
            <input type="checkbox" checked={events.includes(t)} onChange={() => toggle(t)} /> {t}
          </label>
        ))}
      </fieldset>
      <button type="submit">{props.endpoint ? 'Save' : 'Add endpoint'}</button>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </form>
  );
}

/** True when `iso` is at most `ms` away: a retry due soon is worth watching, one due in an hour is not. */
const dueWithin = (iso: string | null, ms: number): boolean => iso !== null && Date.parse(iso) - Date.now() <= ms;

function Deliveries(props: { endpoint: Endpoint; reload: number; onResend: () => void }) {
  const resend = async (d: Delivery) => {
    await api('POST', `/v1/events/${d.event_id}/resend`, { endpoint_id: props.endpoint.id });
    props.onResend();
  };
  return (
    <ListTable<Delivery>
      caption={`Delivery attempts to ${props.endpoint.url}`}
      path={`/v1/webhook_endpoints/${props.endpoint.id}/deliveries`}
      reload={props.reload}
      // Follow attempts about to run so a resend shows its outcome; retries scheduled later are not polled
      // (each poll is a request in the log).
      followWhile={(rows) => rows.some((d) => d.status === 'pending' && dueWithin(d.next_attempt_at, 60_000))}
      columns={[
        { label: 'Event', value: (d) => `${d.event_type} ${d.event_id}` },
        { label: 'Attempt', value: (d) => String(d.attempt) },
        { label: 'Status', value: (d) => d.status },
        { label: 'Code', value: (d) => (d.status_code === null ? '—' : String(d.status_code)) },
        { label: 'Duration', value: (d) => (d.duration_ms === null ? '—' : `${d.duration_ms} ms`) },
        { label: 'Error', value: (d) => d.error ?? '' },
        { label: 'Next attempt', value: (d) => <Time iso={d.next_attempt_at} /> },
        {
          label: 'Resend',
          value: (d) => (
            <button type="button" onClick={() => void resend(d)}>
              Resend
            </button>
          ),
        },
      ]}
    />
  );
}

/** Sends the newest real event of a type the endpoint takes through the real delivery path. */
async function sendTest(endpoint: Endpoint): Promise<string> {
  const type = endpoint.enabled_events.includes('*') ? '' : `?type=${encodeURIComponent(endpoint.enabled_events.join(','))}`;
  const [last] = await newest<{ id: string; type: string }>(`/v1/events${type}`, 1);
  if (!last) return 'No event of these types exists yet: create a record first.';
  await api('POST', `/v1/events/${last.id}/resend`, { endpoint_id: endpoint.id });
  return `Sent ${last.type} (${last.id}).`;
}

export function Webhooks() {
  const [reload, setReload] = useState(0);
  const [secret, setSecret] = useState('');
  const [editing, setEditing] = useState<Endpoint | null>(null);
  const [open, setOpen] = useState<Endpoint | null>(null);
  const [message, setMessage] = useState('');
  const refresh = () => setReload((n) => n + 1);
  const act = async (fn: () => Promise<unknown>) => {
    try {
      const result = await fn();
      setMessage(typeof result === 'string' ? result : '');
    } catch (err) {
      setMessage((err as Error).message);
    }
    refresh();
  };
  const rotate = async (w: Endpoint) => {
    const { confirmed, option: expireOld } = await confirmWithOption({
      title: `Rotate the signing secret of ${w.url}?`,
      lose: 'A new secret is made and shown once. The current secret keeps signing beside it for 24 hours, then stops: a receiver still checking only the old secret fails after that.',
      option: 'The current secret leaked: stop signing with it now',
      confirmLabel: 'Rotate secret',
    });
    if (confirmed) await act(async () => setSecret((await api('POST', `/v1/webhook_endpoints/${w.id}/rotate_secret`, { expire_old: expireOld })).secret));
  };
  const remove = async (w: Endpoint) => {
    const ok = await confirmAction({
      title: `Delete the webhook endpoint ${w.url}?`,
      lose: 'Events stop going to it at once; its signing secret, its delivery history and any retries still pending are deleted. This cannot be undone.',
      confirmLabel: 'Delete endpoint',
    });
    if (!ok) return;
    if (open?.id === w.id) setOpen(null);
    if (editing?.id === w.id) setEditing(null);
    await act(() => api('DELETE', `/v1/webhook_endpoints/${w.id}`));
  };
  return (
    <section>
      <h1>Webhooks</h1>
      <EndpointForm
        key={`new-${reload}`}
        onDone={(s) => {
          setSecret(s ?? '');
          refresh();
        }}
      />
      {secret && (
        <div class="card secret" role="status">
          <p>Signing secret, shown once: copy it now.</p>
          <code>{secret}</code> <CopyButton text={secret} label="Copy secret" />
        </div>
      )}
      {message && <p role="status">{message}</p>}
      <ListTable<Endpoint>
        caption="Webhook endpoints"
        path="/v1/webhook_endpoints"
        reload={reload}
        columns={[
          { label: 'URL', value: (w) => w.url },
          { label: 'Description', value: (w) => w.description ?? '' },
          { label: 'Events', value: (w) => w.enabled_events.join(' ') },
          { label: 'Status', value: (w) => w.status },
          {
            label: 'Actions',
            value: (w) => (
              <span class="actions">
                <button type="button" onClick={() => void act(() => sendTest(w))}>
                  Send test event
                </button>
                <button
                  type="button"
                  onClick={() => {
                    setOpen(w);
                    refresh();
                  }}
                >
                  Deliveries
                </button>
                <button type="button" onClick={() => setEditing(w)}>
                  Edit
                </button>
                <button
                  type="button"
                  onClick={() => void act(() => api('PATCH', `/v1/webhook_endpoints/${w.id}`, { status: w.status === 'enabled' ? 'disabled' : 'enabled' }))}
                >
                  {w.status === 'enabled' ? 'Disable' : 'Enable'}
                </button>
                <button type="button" onClick={() => void rotate(w)}>
                  Rotate secret
                </button>
                <button type="button" onClick={() => void remove(w)}>
                  Delete
                </button>
              </span>
            ),
          },
        ]}
      />
      {editing && (
        <EndpointForm
          key={editing.id}
          endpoint={editing}
          onDone={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
      {open && <Deliveries endpoint={open} reload={reload} onResend={refresh} />}
    </section>
  );
}
