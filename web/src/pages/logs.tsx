import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { JsonView, ListTable } from '../components/table.js';
import { Time } from '../records/fields.js';
import { UrlFilter, withFilters } from '../components/search.js';
import { query } from '../router.js';
import { keyLabel, useKeyNames } from '../components/key-names.js';
import { DashboardBadge, HideDashboardRequests, hideDashboardRequests } from '../components/dashboard-requests.js';

/** Newest first, in a time window (in the URL as ?since=; the last hour unless it says otherwise). */
const WINDOWS: Record<string, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000, '24h': 24 * 60 * 60_000 };
const WINDOW_OPTIONS = [
  { value: '5m', label: 'Last 5 minutes' },
  { value: '1h', label: 'Last hour' },
  { value: '24h', label: 'Last 24 hours' },
  { value: 'all', label: 'All kept (the last 10,000)' },
];

function logsPath(): string {
  const filtered = withFilters('/v1/request_logs?order=desc', ['status', 'method', 'path_prefix', 'key_id']);
  const path = hideDashboardRequests.value ? `${filtered}&source=api` : filtered;
  const window = WINDOWS[query('since') || '1h'];
  if (!window) return path;
  // Rounded to the minute, so the list (and its cursor) stays the same while the user pages.
  const after = new Date(Math.floor((Date.now() - window) / 60_000) * 60_000).toISOString();
  return `${path}&created_after=${encodeURIComponent(after)}`;
}

interface RequestLog {
  id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  key_id: string | null;
  key_prefix: string | null;
  idempotency_key: string | null;
  idempotent_replayed: boolean;
  source: 'api' | 'dashboard';
  created_at: string;
}

/** The request log: the first place to look when an integration fails. Bodies are redacted by the server. */
export function Logs() {
  const [selected, setSelected] = useState<string | null>(null);
  const [detail, setDetail] = useState<unknown>(null);
  const keys = useKeyNames();
  useEffect(() => {
    if (selected) api('GET', `/v1/request_logs/${selected}`).then(setDetail, () => setDetail(null));
  }, [selected]);
  return (
    <section>
      <h1>Logs</h1>
      <div class="filters">
        <UrlFilter name="status" label="Status" />
        <UrlFilter name="method" label="Method" options={['GET', 'POST', 'PATCH', 'DELETE']} />
        <UrlFilter name="path_prefix" label="Path starts with" />
        <UrlFilter name="since" label="Since" options={WINDOW_OPTIONS} fallback="1h" />
        <HideDashboardRequests />
      </div>
      <ListTable<RequestLog>
        caption="Requests to /v1, newest first"
        path={logsPath()}
        empty={
          hideDashboardRequests.value
            ? 'No requests from apps or scripts match. The dashboard’s own requests are hidden: untick “Hide dashboard requests” to see them.'
            : undefined
        }
        onSelect={(r) => setSelected(r.id)}
        columns={[
          {
            label: 'Request',
            value: (r) => (
              <>
                {`${r.method} ${r.path}`}
                {r.source === 'dashboard' && (
                  <>
                    {' '}
                    <DashboardBadge />
                  </>
                )}
              </>
            ),
          },
          { label: 'Status', value: (r) => String(r.status) },
          { label: 'Duration', value: (r) => `${r.duration_ms} ms` },
          { label: 'Key', value: (r) => keyLabel(keys, r.key_id, r.key_prefix) },
          { label: 'Idempotency', value: (r) => (r.idempotency_key ? `${r.idempotency_key}${r.idempotent_replayed ? ' (replayed)' : ''}` : '') },
          { label: 'Time', value: (r) => <Time iso={r.created_at} /> },
        ]}
      />
      {detail !== null && <JsonView value={detail} label="Request detail" />}
    </section>
  );
}
