import type { ComponentChildren } from 'preact';
import { UrlFilter } from '../components/search.js';
import { query, setQuery } from '../router.js';
import type { ResourceSpec } from './describe.js';
import { RelationSelect } from './relation-select.js';

/** A list's filters, from its description, each kept in the URL; a relation is picked by name. */
export function RecordFilters(props: { spec: ResourceSpec; children?: ComponentChildren }) {
  const { spec } = props;
  const active = spec.filters.some((name) => query(name));
  return (
    <div class="filters">
      {spec.filters.map((name) => {
        if (name === 'q') return <UrlFilter key={name} name="q" label="Search" />;
        const field = spec.fields.find((f) => f.key === name)!;
        if (field.type === 'enum' || field.type === 'select' || field.type === 'multi-select')
          return <UrlFilter key={name} name={name} label={field.label} options={field.options} />;
        if (field.type === 'relation') {
          return (
            <div class="filter" key={name}>
              <label for={`filter-${name}`}>{field.label}</label>
              <RelationSelect id={`filter-${name}`} field={field} value={query(name)} onChange={(id) => setQuery({ [name]: id })} emptyLabel="All" />
            </div>
          );
        }
        return <UrlFilter key={name} name={name} label={field.label} type={field.type === 'email' ? 'email' : 'search'} />;
      })}
      {props.children}
      {active && (
        <button type="button" onClick={() => setQuery(Object.fromEntries(spec.filters.map((n) => [n, ''])))}>
          Clear filters
        </button>
      )}
    </div>
  );
}
