import { fitsCustomCell, tagsToCell, type CustomValue } from './cells.js';
import type { Target } from './columns.js';
import { valueToCell } from './fields/field-cells.js';

/**
 * A record of the API as a row of export cells, one per target (flatten.ts picks the targets of the
 * columns): nested fields flattened into the columns the import reads (address.city,
 * contact.email, custom.<key>). Apart from flatten.ts so that the export's render thread
 * (render-worker.ts) loads this and not the schemas behind the column catalogues.
 */
export type Exported = Record<string, unknown> & {
  tags?: string[];
  custom_fields?: Record<string, CustomValue>;
  address?: Record<string, string | null>;
  contacts?: { is_primary: boolean; [field: string]: unknown }[];
};

/** Compiles the targets once into one function that turns a record into its row. */
export function recordRow(targets: readonly Target[]): (record: Exported) => string[] {
  const inColumns = new Set(targets.flatMap((t) => (t.kind === 'custom' ? [t.key] : [])));
  // A defined field's column carries every value of it (typed, field-cells.ts); null is no value.
  const typed = new Set(targets.flatMap((t) => (t.kind === 'custom' && t.field ? [t.key] : [])));
  const getters = targets.map((target) => getter(target, inColumns, typed));
  return (record) => getters.map((get) => get(record));
}

function getter(target: Target, inColumns: Set<string>, typed: Set<string>): (record: Exported) => string {
  switch (target.kind) {
    case 'id':
      return (r) => text(r.id);
    case 'field':
      return (r) => text(r[target.field]);
    case 'readonly':
      return (r) => text(r[target.field]);
    case 'ignored':
      return () => '';
    case 'tags':
      return (r) => tagsToCell(r.tags ?? []);
    case 'custom': {
      const field = target.field;
      if (field) return (r) => valueToCell(field, r.custom_fields?.[target.key]);
      return (r) => {
        const value = r.custom_fields?.[target.key];
        return fitsCustomCell(value) ? String(value) : '';
      };
    }
    case 'custom_json':
      return (r) => {
        const rest = Object.entries(r.custom_fields ?? {}).filter(([key, value]) => !typed.has(key) && (!inColumns.has(key) || !fitsCustomCell(value)));
        return rest.length ? JSON.stringify(Object.fromEntries(rest)) : '';
      };
    case 'address':
      return (r) => text(r.address?.[target.field]);
    case 'contact':
      return (r) => text(r.contacts?.find((c) => c.is_primary)?.[target.field]);
  }
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
