import { query, setQuery } from '../router.js';
import type { FieldSpec } from './describe.js';

const keyOf = (field: FieldSpec): string => field.key.slice('custom_fields.'.length);

/** The custom field keys whose columns the list shows, from the URL (`?columns=industry,employees`). */
export const chosenColumns = (): string[] => query('columns').split(',').filter(Boolean);

/**
 * Which custom fields a list shows as columns, kept in the URL so a reload or a shared link shows
 * the same table. A native disclosure (<details>): Enter or Space opens it, each field a checkbox.
 */
export function ColumnChooser(props: { fields: FieldSpec[] }) {
  if (props.fields.length === 0) return null;
  const chosen = chosenColumns();
  const toggle = (key: string, on: boolean) => setQuery({ columns: (on ? [...chosen, key] : chosen.filter((k) => k !== key)).join(',') });
  return (
    <details class="column-chooser filter">
      <summary>{chosen.length ? `Columns (${chosen.length})` : 'Columns'}</summary>
      <fieldset>
        <legend class="visually-hidden">Custom fields shown as columns</legend>
        {props.fields.map((f) => (
          <label class="check" key={f.key}>
            <input type="checkbox" checked={chosen.includes(keyOf(f))} onChange={(e) => toggle(keyOf(f), e.currentTarget.checked)} /> {f.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
