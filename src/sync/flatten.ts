import { fitsCustomCell, tagsToCell, type CustomValue } from './cells.js';
import { CATALOGUES, targetOf, type SyncResource, type Target } from './columns.js';
import { SyncUsageError } from './errors.js';

/**
 * Records as CSV rows for export: nested fields flattened into the same columns the import reads
 * (address.city, contact.email, custom.<key>), so that an export imports back as all unchanged.
 */
type Exported = Record<string, unknown> & {
  tags?: string[];
  custom_fields?: Record<string, CustomValue>;
  address?: Record<string, string | null>;
  contacts?: { is_primary: boolean; [field: string]: unknown }[];
};

/**
 * The columns of an export: --fields as given, or every column with a custom.<key> column for each
 * custom field of the first page (the header is written before later pages exist; custom fields
 * first seen later go to the custom_fields JSON column, so nothing is lost).
 */
export function exportColumns(resource: SyncResource, firstPage: Exported[], fields: string[] | undefined): string[] {
  const catalogue = CATALOGUES[resource];
  if (fields) {
    for (const field of fields) {
      if (!targetOf(catalogue, field)) throw new SyncUsageError(`--fields: "${field}" is not a ${resource} column. Columns: ${catalogue.columns.join(', ')}, custom.<name>.`);
    }
    return fields;
  }
  const keys = new Set<string>();
  for (const record of firstPage) {
    for (const [key, value] of Object.entries(record.custom_fields ?? {})) if (fitsCustomCell(value)) keys.add(key);
  }
  const at = catalogue.columns.indexOf('custom_fields');
  return [...catalogue.columns.slice(0, at), ...[...keys].map((k) => `custom.${k}`), ...catalogue.columns.slice(at)];
}

/** Compiles the columns once into one function that turns a record into its row. */
export function rowMaker(resource: SyncResource, columns: string[]): (record: Exported) => string[] {
  const catalogue = CATALOGUES[resource];
  const targets = columns.map((c) => targetOf(catalogue, c)!);
  const inColumns = new Set(targets.flatMap((t) => (t.kind === 'custom' ? [t.key] : [])));
  const getters = targets.map((target) => getter(target, inColumns));
  return (record) => getters.map((get) => get(record));
}

function getter(target: Target, inColumns: Set<string>): (record: Exported) => string {
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
    case 'custom':
      return (r) => {
        const value = r.custom_fields?.[target.key];
        return fitsCustomCell(value) ? String(value) : '';
      };
    case 'custom_json':
      return (r) => {
        const rest = Object.entries(r.custom_fields ?? {}).filter(([key, value]) => !inColumns.has(key) || !fitsCustomCell(value));
        return rest.length ? JSON.stringify(Object.fromEntries(rest)) : '';
      };
    case 'address':
      return (r) => text(r.address?.[target.field]);
    case 'contact':
      return (r) => text(r.contacts?.find((c) => c.is_primary)?.[target.field]);
  }
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

