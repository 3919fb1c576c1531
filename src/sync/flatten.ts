import { fitsCustomCell } from './cells.js';
import { CATALOGUES, targetOf, type SyncResource, type Target } from './columns.js';
import { SyncUsageError } from './errors.js';
import { recordRow, type Exported } from './record-row.js';

/**
 * The columns of an export: --fields as given, or every column with a custom.<key> column for each
 * custom field of the first page (the header is written before later pages exist; custom fields
 * first seen later go to the custom_fields JSON column, so nothing is lost).
 */
export function exportColumns(resource: SyncResource, firstPage: Exported[], fields: string[] | undefined): string[] {
  const catalogue = CATALOGUES[resource];
  if (fields) {
    for (const field of fields) {
      if (!targetOf(catalogue, field))
        throw new SyncUsageError(`--fields: "${field}" is not a ${resource} column. Columns: ${catalogue.columns.join(', ')}, custom.<name>.`);
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

/** Compiles the columns once into one function that turns a record into its row (record-row.ts). */
export function rowMaker(resource: SyncResource, columns: string[]): (record: Exported) => string[] {
  return recordRow(exportTargets(resource, columns));
}

/** What each export column holds: plain data, so that the export's render thread gets it as it is. */
export function exportTargets(resource: SyncResource, columns: string[]): Target[] {
  const catalogue = CATALOGUES[resource];
  return columns.map((c) => targetOf(catalogue, c)!);
}
