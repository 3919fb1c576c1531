import { useEffect, useState } from 'preact/hooks';
import { api, can } from '../api.js';
import { CopyButton } from '../components/table.js';
import { AccountLine } from '../components/account.js';
import { sdkSnippet } from './overview-snippet.js';
import { useUsage } from './usage.js';

const RESOURCES: [path: string, name: string, scope: string][] = [
  ['/v1/leads', 'Leads', 'leads:read'],
  ['/v1/clients', 'Clients', 'clients:read'],
  ['/v1/deals', 'Deals', 'deals:read'],
  ['/v1/invoices', 'Invoices', 'invoices:read'],
];

/** Counts by paging through each list with the largest page (a sandbox holds thousands, not millions). */
async function count(path: string): Promise<string> {
  const page = await api<{ data: unknown[]; next_cursor: string | null }>('GET', `${path}?limit=1000`);
  return page.next_cursor ? `${page.data.length}+` : String(page.data.length);
}

export function Overview() {
  const [counts, setCounts] = useState<Record<string, string>>({});
  const [usage] = useUsage();
  useEffect(() => {
    for (const [path, name, scope] of RESOURCES) {
      if (can(scope))
        void count(path).then(
          (n) => setCounts((c) => ({ ...c, [name]: n })),
          () => undefined,
        );
    }
  }, []);
  const base = window.location.origin;
  const curl = `curl -H "Authorization: Bearer $CRM_API_KEY" "${base}/v1/deals?limit=5"`;
  const sdk = sdkSnippet(base);
  const series = usage?.requests_per_second.series ?? [];
  return (
    <section>
      <h1>Overview</h1>
      <AccountLine />
      <dl class="counts">
        {RESOURCES.map(([, name]) => (
          <div key={name} class="card">
            <dt>{name}</dt>
            <dd>{counts[name] ?? '—'}</dd>
          </div>
        ))}
        <div class="card">
          <dt>Requests per second</dt>
          <dd>{series.length ? String(series[series.length - 1]) : '—'}</dd>
        </div>
      </dl>
      <h2>Quick start</h2>
      <p>
        Base URL <code>{base}</code> <CopyButton text={base} label="Copy base URL" />
      </p>
      <pre tabIndex={0} aria-label="curl example">
        {curl}
      </pre>
      <CopyButton text={curl} label="Copy curl" />
      <pre tabIndex={0} aria-label="SDK example">
        {sdk}
      </pre>
      <CopyButton text={sdk} label="Copy SDK snippet" />
    </section>
  );
}
