import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, can } from '../../api.js';
import { Link, recordUrl } from '../../components/link.js';
import type { ResourceSpec } from '../describe.js';

const SHOWN = 10;

/** A panel of records related to this one (a client's deals), each by name with a detail, and a link to the whole filtered list. */
export function RelatedList(props: {
  title: string;
  spec: ResourceSpec;
  filter: Record<string, string>;
  detail: (r: Record<string, any>) => ComponentChildren;
  version?: unknown;
}) {
  const { spec } = props;
  const params = new URLSearchParams(props.filter);
  const [rows, setRows] = useState<Record<string, any>[] | null>(null);
  const [more, setMore] = useState(false);
  const readable = can(`${spec.scope}:read`);
  useEffect(() => {
    if (!readable) return;
    api<{ data: Record<string, any>[]; next_cursor: string | null }>('GET', `${spec.path}?${params}&limit=${SHOWN}`).then(
      (page) => {
        setRows(page.data);
        setMore(page.next_cursor !== null);
      },
      () => setRows([]),
    );
  }, [params.toString(), props.version]);
  const headingId = `related-${spec.name}`;
  return (
    <section class="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{props.title}</h2>
      {!readable ? (
        <p class="muted">{`This key lacks the scope '${spec.scope}:read'.`}</p>
      ) : rows === null ? (
        <p class="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p class="muted">{`No ${spec.plural.toLowerCase()} yet.`}</p>
      ) : (
        <ul class="related">
          {rows.map((r) => (
            <li key={r.id}>
              <Link href={recordUrl(spec.name, r.id)}>{spec.title(r)}</Link>
              <span>{props.detail(r)}</span>
            </li>
          ))}
        </ul>
      )}
      {more && (
        <p>
          <Link href={`/dashboard/${spec.name}?${params}`}>{`All ${spec.plural.toLowerCase()} of this client`}</Link>
        </p>
      )}
    </section>
  );
}
