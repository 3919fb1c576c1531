// A resource's list page: heading with the primary action (New lead…), filters kept in the URL, a
// cursor-paged table whose first column is the record's name linking to its page, ids shown as
// names, and an empty state that says what to do.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { can } from '../api.js';
import { Link, recordUrl } from '../components/link.js';
import { ListTable, type Column } from '../components/table.js';
import { withFilters } from '../components/search.js';
import { navigate, query } from '../router.js';
import { CreateDialog } from './create-dialog.js';
import type { ResourceSpec } from './describe.js';
import { FieldValue } from './fields.js';
import { RecordFilters } from './filters.js';
import { isOverdue } from './resources/invoices.js';

type Row = Record<string, any> & { id: string };

function columns(spec: ResourceSpec): Column<Row>[] {
  // A one-word name (INV-000001) never breaks, not even at its hyphen.
  const title: Column<Row> = {
    label: spec.titleLabel,
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
    const numeric = field.type === 'money' || field.type === 'percent';
    return {
      label: field.label,
      class: numeric ? 'num' : undefined,
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

export function RecordList(props: { spec: ResourceSpec; toolbar?: ComponentChildren }) {
  const { spec } = props;
  const [creating, setCreating] = useState(false);
  const filtered = spec.filters.some((n) => query(n));
  const empty = filtered ? `No ${spec.plural.toLowerCase()} match these filters. Clear the filters to see them all.` : `No ${spec.plural.toLowerCase()} yet. ${spec.emptyHint}`;
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
      <RecordFilters spec={spec} />
      <ListTable<Row>
        // The API lists by creation, oldest first, and cannot sort the other way (API.md §2).
        caption={`${spec.plural}, oldest first`}
        path={withFilters(spec.path, spec.filters)}
        columns={columns(spec)}
        empty={empty}
      />
      {creating && <CreateDialog spec={spec} path={spec.path} onClose={() => setCreating(false)} onCreated={(r) => navigate(recordUrl(spec.name, r.id))} />}
    </section>
  );
}
