import { BUILT_IN_FIELDS, FIELD_KEY, fieldKeyFor, type FieldObject, type FieldType } from '../../domain/custom-fields.js';
import type { SyncResource } from '../columns.js';
import type { CsvSource } from '../csv/source.js';
import { SyncUsageError } from '../errors.js';
import type { FieldDef } from '../fields/definitions.js';
import type { FieldIndex } from '../fields/field-index.js';
import { ColumnSummary } from '../fields/infer.js';
import type { UnknownColumn } from './mapping.js';
import { presetsKnowing, type Preset } from './presets.js';

/**
 * The columns of a file that fill no built-in field and no defined custom field
 * (docs/sync.md, "Custom fields"). The server refuses a custom field no definition names, so
 * sending them would fail every row: the import stops before writing anything and says what to
 * do, unless it was told to define them (--create-fields) or leave them out (--ignore-unknown).
 */
export type UnknownColumnsPolicy = 'stop' | 'create' | 'ignore';

/** A field --create-fields defines for a column, its type read from the whole file. */
export interface NewField extends FieldDef {
  /** The file's column it is made for. */
  column: string;
}

export function unknownColumnsError(resource: SyncResource, unknown: UnknownColumn[], fields: FieldIndex, from: Preset | undefined): SyncUsageError {
  const names = unknown.map((c) => `"${c.column}"`).join(', ');
  const lines = [
    `Unknown column(s) for ${resource}: ${names}. They fill no ${resource} field and no custom field defined for ${resource}. ` +
      'Nothing was written (the server refuses custom fields nobody defined).',
  ];
  const like = from
    ? undefined
    : presetsKnowing(
        resource,
        unknown.map((c) => c.column),
      )[0];
  if (like)
    lines.push(
      `  This looks like a ${PRODUCT[like.preset]} export (${like.known.map((c) => `"${c}"`).join(', ')}): add --from ${like.preset} to read its columns.`,
    );
  lines.push(
    '  --create-fields defines a custom field for each, its type read from the file (with --plan: see them first, nothing is created);',
    '  --ignore-unknown leaves them out;',
    '  --map "Column=field" sends one to a field ("Column=custom.<key>" to a custom field, "Column=" drops it).',
  );
  const defined = fields.fields.map((f) => (f.label === f.key ? f.key : `${f.key} ("${f.label}")`));
  lines.push(`  Custom fields of ${resource}: ${defined.length ? defined.join(', ') : 'none yet'}.`);
  return new SyncUsageError(lines.join('\n'));
}

const PRODUCT: Record<Preset, string> = { hubspot: 'HubSpot', salesforce: 'Salesforce', pipedrive: 'Pipedrive' };

/**
 * The first pass of --create-fields: every row of the file, each unknown column's cells into its
 * summary (infer.ts). A row that cannot be read ends the pass there, as it ends the import.
 */
export async function summariseColumns(source: CsvSource, indexes: number[]): Promise<Map<number, ColumnSummary>> {
  const summaries = new Map(indexes.map((i) => [i, new ColumnSummary()]));
  for await (const run of source.rows) {
    for (const row of run) {
      if (row.error) continue;
      for (const [i, summary] of summaries) summary.add(row.values[i] ?? '');
    }
  }
  return summaries;
}

/** The fields to define: a key from each column's name (apart from the built-in fields and the keys taken), its label, its type. */
export function newFields(object: FieldObject, unknown: UnknownColumn[], summaries: Map<number, ColumnSummary>, fields: FieldIndex): NewField[] {
  const taken = new Set<string>([...BUILT_IN_FIELDS[object], ...fields.fields.map((f) => f.key)]);
  return unknown.map((column) => {
    // A name that is a key already (custom.score) stays that key.
    const key = FIELD_KEY.test(column.name) && !taken.has(column.name) ? column.name : fieldKeyFor(column.name, taken);
    taken.add(key);
    const summary = summaries.get(column.index)!;
    const type: FieldType = summary.type();
    return {
      column: column.column,
      key,
      label: column.name.slice(0, 200) || key,
      type,
      options: type === 'select' ? summary.options() : null,
      decimals: null,
    };
  });
}
