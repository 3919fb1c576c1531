import { query, setQuery } from '../router.js';

type Option = string | { value: string; label: string };

/**
 * A filter kept in the URL (?name=…), so reloads and shared links keep it. With `fallback`, the
 * select shows the value the page uses when the URL has none, instead of an "All" it would not mean.
 */
export function UrlFilter(props: { name: string; label: string; options?: readonly Option[]; type?: 'search' | 'email'; fallback?: string }) {
  const id = `filter-${props.name}`;
  return (
    <div class="filter">
      <label for={id}>{props.label}</label>
      {props.options ? (
        <select id={id} value={query(props.name) || (props.fallback ?? '')} onChange={(e) => setQuery({ [props.name]: e.currentTarget.value })}>
          {props.fallback === undefined && <option value="">All</option>}
          {props.options.map((o) => {
            const { value, label } = typeof o === 'string' ? { value: o, label: o } : o;
            return (
              <option key={value} value={value}>
                {label}
              </option>
            );
          })}
        </select>
      ) : (
        <input
          id={id}
          type={(props.type ?? 'search') as 'search'}
          value={query(props.name)}
          onChange={(e) => setQuery({ [props.name]: e.currentTarget.value })}
        />
      )}
    </div>
  );
}

/** The list path with the URL's filters appended. */
export function withFilters(path: string, names: string[]): string {
  const params = new URLSearchParams();
  for (const n of names) if (query(n)) params.set(n, query(n));
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}
