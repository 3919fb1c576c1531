import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { JsonView, ListTable, when } from '../components/table.js';
import { UrlFilter, withFilters } from '../components/search.js';
import { query } from '../router.js';
import { keyLabel, useKeyNames } from '../components/key-names.js';

/** The log is a list, oldest first: a time window (in the URL as ?since=) keeps the recent requests on the first page. */
const WINDOWS: Record<string, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000, '24h': 24 * 60 * 60_000 };

function logsPath(): string {
  const path = withFilters('/v1/request_logs', ['status', 'method', 'path_prefix', 'key_id']);
  const window = WINDOWS[query('since') || '1h'];
  if (!window) return path;
  // Rounded to the minute, so the list (and its cursor) stays the same while the user pages.
  const after = new Date(Math.floor((Date.now() - window) / 60_000) * 60_000).toISOString();
  return `${path}${path.includes('?') ? '&' : '?'}created_after=${encodeURIComponent(after)}`;
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
        <UrlFilter name="since" label="Since (default 1h)" options={['5m', '1h', '24h', 'all']} />
      </div>
      <ListTable<RequestLog>
        caption="Requests to /v1, oldest first"
        path={logsPath()}
        onSelect={(r) => setSelected(r.id)}
        columns={[
          { label: 'Request', value: (r) => `${r.method} ${r.path}` },
          { label: 'Status', value: (r) => String(r.status) },
          { label: 'Duration', value: (r) => `${r.duration_ms} ms` },
          { label: 'Key', value: (r) => keyLabel(keys, r.key_id, r.key_prefix) },
          { label: 'Idempotency', value: (r) => (r.idempotency_key ? `${r.idempotency_key}${r.idempotent_replayed ? ' (replayed)' : ''}` : '') },
          { label: 'Time', value: (r) => when(r.created_at) },
        ]}
      />
      {detail !== null && <JsonView value={detail} label="Request detail" />}
    </section>
  );
}
