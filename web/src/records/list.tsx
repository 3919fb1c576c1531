// A resource's list page: heading with the primary action (New lead…), filters kept in the URL, a
// cursor-paged table whose first column is the record's name linking to its page, ids shown as
// names, and an empty state that says what to do.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { can } from '../api.js';
import { Link, recordUrl } from '../components/link.js';
import { ListTable, type Column, type SortState } from '../components/table.js';
import { withFilters } from '../components/search.js';
import { navigate, query, setQuery } from '../router.js';
import { CreateDialog } from './create-dialog.js';
import type { ResourceSpec } from './describe.js';
import { FieldValue } from './fields.js';
import { RecordFilters } from './filters.js';
import { isOverdue } from './resources/invoices.js';
import { ColumnChooser, chosenColumns } from './column-chooser.js';
import { useCustomFields } from './custom-fields.js';

type Row = Record<string, any> & { id: string };

function columns(spec: ResourceSpec): Column<Row>[] {
  // A one-word name (INV-000001) never breaks, not even at its hyphen.
  const title: Column<Row> = {
    label: spec.titleLabel,
    sort: spec.sorts.title,
    value: (r) => {
      const name = spec.title(r);
      return (
        <Link href={recordUrl(spec.name, r.id)} class={/\s/.test(name) ? undefined : 'nowrap'}>
          {name}
        </Link>
      );
    },
  };
  const rest = spec.columns.map((key): Column<Row> => {
    const field = spec.fields.find((f) => f.key === key)!;
    const numeric = field.type === 'money' || field.type === 'percent' || field.type === 'number';
    return {
      label: field.label,
      class: numeric ? 'num' : undefined,
      sort: spec.sorts[key],
      value: (r) => (
        <>
          <FieldValue field={field} record={r} compact />
          {spec.name === 'invoices' && key === 'status' && isOverdue(r) && (
            <>
              {' '}
              <span class="badge badge-overdue">Overdue</span>
            </>
          )}
        </>
      ),
    };
  });
  return [title, ...rest];
}

/** Dates sort newest first on a first click, names and amounts A→Z / smallest first. */
const firstOrder = (sort: string): 'asc' | 'desc' => (sort === 'created' || sort === 'updated_at' ? 'desc' : 'asc');

/** The list's order, kept in the URL (?sort=&order=); newest first by default (docs/reference/basics.md#lists-and-pagination). */
function urlSorting(): SortState {
  const sort = query('sort') || 'created';
  const order = query('order') === 'asc' || query('order') === 'desc' ? (query('order') as 'asc' | 'desc') : firstOrder(sort);
  return {
    sort,
    order,
    onSort: (next) => setQuery({ sort: next, order: next === sort ? (order === 'asc' ? 'desc' : 'asc') : firstOrder(next) }),
  };
}

function caption(spec: ResourceSpec, sorting: SortState): string {
  if (sorting.sort === 'created') return `${spec.plural}, ${sorting.order === 'desc' ? 'newest' : 'oldest'} first`;
  const column = sorting.sort === spec.sorts.title ? spec.titleLabel : (spec.fields.find((f) => spec.sorts[f.key] === sorting.sort)?.label ?? sorting.sort);
  return `${spec.plural}, by ${column.toLowerCase()}, ${sorting.order === 'asc' ? 'ascending' : 'descending'}`;
}

/**
 * The description with the account's custom fields: the chosen ones as columns (sortable, but a
 * multi-select), and a filter per select and multi-select field (docs/reference/custom-fields.md#lists).
 */
function withCustomColumns(spec: ResourceSpec): ResourceSpec {
  const custom = spec.fields.filter((f) => f.custom);
  const chosen = chosenColumns();
  const shown = custom.filter((f) => chosen.includes(f.key.slice('custom_fields.'.length)));
  return {
    ...spec,
    columns: [...spec.columns, ...shown.map((f) => f.key)],
    sorts: { ...spec.sorts, ...Object.fromEntries(shown.filter((f) => f.type !== 'multi-select').map((f) => [f.key, f.key])) },
    filters: [...spec.filters, ...custom.filter((f) => f.type === 'select' || f.type === 'multi-select').map((f) => f.key)],
  };
}

export function RecordList(props: { spec: ResourceSpec; toolbar?: ComponentChildren }) {
  const custom = useCustomFields(props.spec);
  const spec = withCustomColumns(custom.spec);
  const [creating, setCreating] = useState(false);
  // `?new=1` (the command menu's "New lead") opens the form too; closing it drops the parameter, so
  // a reload or Back does not open it again.
  const formOpen = creating || (query('new') === '1' && can(`${spec.scope}:write`));
  const closeForm = () => {
    setCreating(false);
    if (query('new')) setQuery({ new: '' });
  };
  const filtered = spec.filters.some((n) => query(n));
  const sorting = urlSorting();
  const empty = filtered
    ? `No ${spec.plural.toLowerCase()} match these filters. Clear the filters to see them all.`
    : `No ${spec.plural.toLowerCase()} yet. ${spec.emptyHint}`;
  return (
    <section>
      <header class="page-header">
        <h1>{spec.plural}</h1>
        {can(`${spec.scope}:write`) && (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            {`New ${spec.singular}`}
          </button>
        )}
      </header>
      {props.toolbar}
      <RecordFilters spec={spec}>
        <ColumnChooser fields={spec.fields.filter((f) => f.custom)} />
      </RecordFilters>
      {custom.problem && (
        <p role="alert" class="warning">
          {custom.problem}
        </p>
      )}
      {/* Once the custom fields are known: a filter or column of the URL may name one. */}
      {custom.ready && (
        <ListTable<Row>
          caption={caption(spec, sorting)}
          path={withFilters(`${spec.path}?sort=${encodeURIComponent(sorting.sort)}&order=${sorting.order}`, spec.filters)}
          sorting={sorting}
          columns={columns(spec)}
          empty={empty}
        />
      )}
      {formOpen && <CreateDialog spec={props.spec} path={spec.path} onClose={closeForm} onCreated={(r) => navigate(recordUrl(spec.name, r.id))} />}
    </section>
  );
}
