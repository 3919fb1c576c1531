import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatDateTime } from '../records/format.js';

export interface Column<T> {
  label: string;
  /** Text only: API data is never rendered as markup (docs/dashboard.md#security-model). */
  value: (row: T) => ComponentChildren;
  /** 'num' right-aligns a number or an amount. */
  class?: string;
  /** The API's `sort` value that orders the list by this column, when it can. */
  sort?: string;
}

/** The list's order as the URL keeps it, and what a click on a sortable header does. */
export interface SortState {
  sort: string;
  order: 'asc' | 'desc';
  onSort: (sort: string) => void;
}

/**
 * A cursor-paged table over a /v1 list: "Next page" follows next_cursor, "First page" starts over.
 * `reload` changes when the caller wants the first page fetched again (after a create, a filter).
 */
export function ListTable<T extends { id: string }>(props: {
  path: string;
  columns: Column<T>[];
  caption: string;
  reload?: unknown;
  onSelect?: (row: T) => void;
  /** What an empty list says (what to do next); "Nothing here yet." by default. */
  empty?: ComponentChildren;
  /** While this holds for the rows shown, the page is fetched again each second (a pending delivery, say). */
  followWhile?: (rows: T[]) => boolean;
  /** Sortable headers (columns with `sort`) as buttons, the current one marked with aria-sort. */
  sorting?: SortState;
}) {
  const [rows, setRows] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [loaded, setLoaded] = useState(false);
  const [tick, setTick] = useState(0);
  useEffect(() => setCursor(null), [props.path, props.reload]);
  useEffect(() => {
    const sep = props.path.includes('?') ? '&' : '?';
    api<{ data: T[]; next_cursor: string | null }>('GET', `${props.path}${sep}limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      .then((page) => {
        setRows(page.data);
        setNext(page.next_cursor);
        setError('');
        setLoaded(true);
      })
      .catch((err: Error) => setError(err.message));
  }, [props.path, props.reload, cursor, tick]);
  const following = loaded && props.followWhile !== undefined && props.followWhile(rows);
  useEffect(() => {
    if (!following) return;
    const timer = setTimeout(() => setTick((n) => n + 1), 1000);
    return () => clearTimeout(timer);
  }, [following, rows]);
  return (
    <div class="table-wrap">
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <HeaderCell key={c.label} column={c} sorting={props.sorting} />
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && loaded && !error && (
            <tr>
              <td colSpan={props.columns.length} class="empty">
                {props.empty ?? 'Nothing here yet.'}
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={row.id}>
              {props.columns.map((c, i) => (
                <td key={c.label} class={c.class}>
                  {i === 0 && props.onSelect ? (
                    <button type="button" class="link" onClick={() => props.onSelect!(row)}>
                      {c.value(row)}
                    </button>
                  ) : (
                    c.value(row)
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div class="pager">
        <button type="button" disabled={!cursor} onClick={() => setCursor(null)}>
          First page
        </button>
        <button type="button" disabled={!next} onClick={() => setCursor(next)}>
          Next page
        </button>
      </div>
    </div>
  );
}

function HeaderCell<T>(props: { column: Column<T>; sorting: SortState | undefined }) {
  const { column: c, sorting } = props;
  if (!sorting || !c.sort) {
    return (
      <th scope="col" class={c.class}>
        {c.label}
      </th>
    );
  }
  const current = sorting.sort === c.sort;
  const direction = sorting.order === 'asc' ? 'ascending' : 'descending';
  return (
    <th scope="col" class={c.class} aria-sort={current ? direction : undefined}>
      <button type="button" class="sort" onClick={() => sorting.onSort(c.sort!)}>
        {c.label}
        <span aria-hidden="true" class="sort-mark">
          {current ? (sorting.order === 'asc' ? '↑' : '↓') : ''}
        </span>
      </button>
    </th>
  );
}

/** A record as indented JSON text (a <pre> text node, never markup). */
export function JsonView(props: { value: unknown; label?: string }) {
  return (
    <pre class="json" tabIndex={0} aria-label={props.label ?? 'JSON'}>
      {JSON.stringify(props.value, null, 2)}
    </pre>
  );
}

export function CopyButton(props: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        void navigator.clipboard?.writeText(props.text).then(
          () => setDone(true),
          () => setDone(false),
        );
      }}
    >
      {done ? 'Copied' : (props.label ?? 'Copy')}
    </button>
  );
}

/** A date and time in the user's locale, for running text (a table cell uses <Time>, which shows the exact instant on hover). */
export const when = (iso: string | null | undefined): string => (iso ? formatDateTime(iso).text : '—');

/** The exact instant, to the second, for the test clock (where the seconds are the point). */
export const exactWhen = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
