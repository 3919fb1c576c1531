import { fitsCustomCell } from './cells.js';
import { CATALOGUES, keyIsBuiltInColumn, targetOf, type SyncResource, type Target } from './columns.js';
import { SyncUsageError } from './errors.js';
import type { FieldDef } from './fields/definitions.js';
import { FieldIndex } from './fields/field-index.js';
import { recordRow, type Exported } from './record-row.js';

/**
 * The columns of an export: --fields as given, or every column. With the object's field
 * definitions, one column per field after the built-in ones, in the fields' order, named by its
 * key (`custom.<key>` for a key that would read back as a built-in column: `firstname`); the
 * custom_fields JSON column then carries only keys no field defines. Without them (a server before
 * definitions), a custom.<key> column for each custom field of the first page (the header is
 * written before later pages exist; custom fields first seen later go to the custom_fields JSON
 * column, so nothing is lost).
 */
export function exportColumns(resource: SyncResource, firstPage: Exported[], fields: string[] | undefined, definitions?: FieldDef[]): string[] {
  const catalogue = CATALOGUES[resource];
  const index = definitions ? new FieldIndex(definitions) : undefined;
  if (fields) {
    for (const field of fields) {
      if (!targetOf(catalogue, field, index))
        throw new SyncUsageError(
          `--fields: "${field}" is not a ${resource} column. Columns: ${catalogue.columns.join(', ')}, ${index ? `the custom fields (${definitions!.map((f) => f.key).join(', ') || 'none'})` : 'custom.<name>'}.`,
        );
    }
    return fields;
  }
  if (definitions) return [...catalogue.columns, ...definitions.map((f) => (keyIsBuiltInColumn(catalogue, f.key) ? `custom.${f.key}` : f.key))];
  const keys = new Set<string>();
  for (const record of firstPage) {
    for (const [key, value] of Object.entries(record.custom_fields ?? {})) if (fitsCustomCell(value)) keys.add(key);
  }
  const at = catalogue.columns.indexOf('custom_fields');
  return [...catalogue.columns.slice(0, at), ...[...keys].map((k) => `custom.${k}`), ...catalogue.columns.slice(at)];
}

/** Compiles the columns once into one function that turns a record into its row (record-row.ts). */
export function rowMaker(resource: SyncResource, columns: string[]): (record: Exported) => string[] {
  return recordRow(exportTargets(resource, columns));
}

/**
 * What each export column holds: plain data, so that the export's render thread gets it as it is.
 * A field's column whose field was deleted since the export began (--resume) is left empty.
 */
export function exportTargets(resource: SyncResource, columns: string[], definitions?: FieldDef[]): Target[] {
  const catalogue = CATALOGUES[resource];
  const index = definitions ? new FieldIndex(definitions) : undefined;
  return columns.map((c) => targetOf(catalogue, c, index) ?? { kind: 'ignored' });
}
