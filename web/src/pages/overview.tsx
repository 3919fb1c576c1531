import { useEffect, useState } from 'preact/hooks';
import { allows, api, type Page } from '../api.js';

const RESOURCES = [
  ['leads', 'Leads'],
  ['clients', 'Clients'],
  ['deals', 'Deals'],
  ['invoices', 'Invoices'],
] as const;

/** Counts of each resource (as far as one page of 1000 tells), the base URL and a quick start to copy. */
export function OverviewPage({ scopes, baseUrl }: { scopes: string[]; baseUrl: string }) {
  const [counts, setCounts] = useState<Record<string, string>>({});
  useEffect(() => {
    for (const [resource] of RESOURCES) {
      if (!allows(scopes, `${resource}:read`)) continue;
      api<Page<unknown>>('GET', `/v1/${resource}?limit=1000`).then(
        (page) => setCounts((c) => ({ ...c, [resource]: `${page.data.length}${page.next_cursor ? '+' : ''}` })),
        () => setCounts((c) => ({ ...c, [resource]: '—' })),
      );
    }
  }, []);
  const curl = `curl -H "Authorization: Bearer $CRM_API_KEY" "${baseUrl}/v1/deals?limit=5"`;
  const sdk = `import crm\nclient = crm.Crm(base_url="${baseUrl}")  # and CRM_API_KEY\nprint(client.leads.list(limit=5).data)`;
  return (
    <>
      <dl class="counts">
        {RESOURCES.filter(([r]) => allows(scopes, `${r}:read`)).map(([resource, name]) => (
          <div key={resource}>
            <dt>{name}</dt>
            <dd>{counts[resource] ?? '…'}</dd>
          </div>
        ))}
      </dl>
      <h2>Base URL</h2>
      <p>
        <code>{baseUrl}</code>
      </p>
      <h2>Quick start</h2>
      <Copyable label="curl" text={curl} />
      <Copyable label="Python SDK" text={sdk} />
    </>
  );
}

export function Copyable({ label, text }: { label: string; text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <figure class="copyable">
      <figcaption>{label}</figcaption>
      <pre>{text}</pre>
      <button type="button" onClick={() => navigator.clipboard.writeText(text).then(() => setCopied(true))}>
        {copied ? 'Copied' : `Copy ${label}`}
      </button>
    </figure>
  );
}
