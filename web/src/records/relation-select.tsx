import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { FieldSpec } from './describe.js';
import { recordName } from './relations.js';
import { RESOURCES } from './resources/index.js';

const SHOWN = 100;

/**
 * Picks a related record by name: a select of records (the first 100; past 100, a search box
 * finds the others where the API can search, as for clients), always including the one chosen.
 * `filter` narrows the choices by another field's value (an invoice's deals by its client).
 */
export function RelationSelect(props: {
  id: string;
  field: FieldSpec;
  value: string;
  onChange: (id: string) => void;
  filter?: string | undefined;
  describedBy?: string | undefined;
  invalid?: boolean;
  /** A filter uses "All" as its empty choice. */
  emptyLabel?: string;
}) {
  const spec = RESOURCES[props.field.relation!];
  const searchable = spec.name === 'clients';
  const [search, setSearch] = useState('');
  const [choices, setChoices] = useState<{ id: string; name: string }[]>([]);
  // The search box appears only when there are more records than one select can list.
  const [more, setMore] = useState(false);
  const [current, setCurrent] = useState<string | null>(null);
  const waitsForFilter = props.field.filterBy !== undefined && !props.filter;

  useEffect(() => {
    if (waitsForFilter) return setChoices([]);
    const params = new URLSearchParams({ limit: String(SHOWN) });
    if (search.trim()) params.set('q', search.trim());
    if (props.field.filterBy && props.filter) params.set(props.field.filterBy.param, props.filter);
    let live = true;
    // Typing waits a moment so a search is one request, not one per key.
    const timer = setTimeout(
      () =>
        void api<{ data: Record<string, any>[]; next_cursor: string | null }>('GET', `${spec.path}?${params}`).then(
          (page) => {
            if (!live) return;
            setChoices(page.data.map((r) => ({ id: r.id, name: spec.title(r) })));
            if (!search.trim()) setMore(page.next_cursor !== null);
          },
          () => live && setChoices([]),
        ),
      search ? 200 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search, props.filter, waitsForFilter]);

  useEffect(() => {
    if (!props.value) return setCurrent(null);
    void recordName(spec.name, props.value).then((n) => setCurrent(n ?? props.value));
  }, [props.value]);

  const options = props.value && !choices.some((c) => c.id === props.value) ? [{ id: props.value, name: current ?? '…' }, ...choices] : choices;
  const empty = props.emptyLabel ?? (props.field.required ? `Choose a ${spec.singular}` : 'None');
  return (
    <div class="relation-select">
      {searchable && more && (
        <input
          type="search"
          aria-label={`Find a ${spec.singular}`}
          placeholder={`Find a ${spec.singular}…`}
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
      )}
      <select
        id={props.id}
        value={props.value}
        disabled={waitsForFilter}
        aria-describedby={props.describedBy}
        aria-invalid={props.invalid ? 'true' : undefined}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        <option value="">{waitsForFilter ? `Choose a ${props.field.filterBy!.field.replace(/_id$/, '')} first` : empty}</option>
        {options.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}
