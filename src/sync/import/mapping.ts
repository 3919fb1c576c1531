import { CATALOGUES, columnName, targetOf, type SyncResource, type Target } from '../columns.js';
import { SyncUsageError } from '../errors.js';
import { customName, type FieldIndex } from '../fields/field-index.js';

/** Each header column's target, in header order; `ignored` for columns that are read and dropped. */
export type ColumnMap = Target[];

/** A column that fills no built-in field and no defined custom field: `name` is what a field made for it would be called. */
export interface UnknownColumn {
  index: number;
  column: string;
  name: string;
}

/**
 * Parses --map "CSV Column=field,Other Column=custom.score,Unwanted=": pairs separated by commas,
 * split at the last '=' (a CSV column name may contain '=', a field never does); an empty field
 * drops the column.
 */
export function parseMapOption(text: string | undefined): Map<string, string> {
  const pairs = new Map<string, string>();
  if (!text) return pairs;
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const at = part.lastIndexOf('=');
    if (at <= 0) throw new SyncUsageError(`--map expects "CSV Column=field" pairs separated by commas; got "${part}".`);
    pairs.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return pairs;
}

/**
 * Maps a header to the resource's columns: --map first (by exact header text, else by normalised
 * name), then the header's own name. Unknown columns are a usage error rather than silently
 * dropped data, like unknown fields in the API; columns with an empty name are ignored.
 *
 * With the object's custom field definitions (`fields`), a column may also fill one of them, and
 * the unknown columns are returned (left `ignored`) for the import to stop on, leave out or define
 * (import/unknown-columns.ts). `original`: the file's own header, when a preset renamed it, for
 * what the unknown columns are called.
 */
export function mapHeader(
  resource: SyncResource,
  header: string[],
  map: Map<string, string>,
  mode: 'upsert' | 'create',
  fields?: FieldIndex,
  original: string[] = header,
): { targets: ColumnMap; unknown: UnknownColumn[] } {
  const catalogue = CATALOGUES[resource];
  const unused = new Set(map.keys());
  const unknown: UnknownColumn[] = [];
  const seen = new Map<string, string>();
  const targets = header.map((column, index): Target => {
    const mapped = mappedName(map, column, unused);
    if (mapped === '' || (mapped === undefined && column.trim() === '')) return { kind: 'ignored' };
    const target = targetOf(catalogue, mapped ?? column, fields);
    if (!target) {
      const toCustom = mapped !== undefined && fields && /^\s*custom\s*\./i.test(mapped);
      if (mapped !== undefined && !toCustom)
        throw new SyncUsageError(
          `--map sends "${column}" to "${mapped}", which is not a ${resource} column. Columns: ${catalogue.columns.join(', ')}, custom.<name>.`,
        );
      const own = original[index] ?? column;
      unknown.push({ index, column: own, name: customName(mapped ?? own) });
      return { kind: 'ignored' };
    }
    if (target.kind === 'readonly') return { kind: 'ignored' }; // what an export adds: read-only here
    const name = columnName(target);
    const earlier = seen.get(name);
    if (earlier !== undefined) throw new SyncUsageError(`Columns "${earlier}" and "${column}" both map to ${name}; drop one with --map "${column}=".`);
    seen.set(name, column);
    if (target.kind === 'custom' && target.field) return { ...target, column: original[index] ?? column };
    if (target.kind === 'custom_json' && fields) return { kind: 'custom_json', defined: new Map(fields.fields.map((f) => [f.key, f])) };
    return target;
  });
  if (unknown.length && !fields) {
    throw new SyncUsageError(
      `Unknown column(s) for ${resource}: ${unknown.map((c) => `"${c.column}"`).join(', ')}. ` +
        `Map them with --map "Column=field" (or "Column=custom.name" to keep them as custom fields, "Column=" to drop them). ` +
        `Columns: ${catalogue.columns.join(', ')}, custom.<name>.`,
    );
  }
  if (unused.size) throw new SyncUsageError(`--map names column(s) the file does not have: ${[...unused].map((c) => `"${c}"`).join(', ')}.`);
  if (mode === 'create' && seen.has('id')) {
    throw new SyncUsageError(
      `--mode create cannot take an id column: ids name existing records to update. Drop it with --map "${seen.get('id')}=" or use --mode upsert.`,
    );
  }
  if (resource === 'clients' && !seen.has('name')) throw new SyncUsageError('A clients file needs a name column (clients require a name).');
  return { targets, unknown };
}

/** Whether any column (after --map) is not a built-in one: only then do the field definitions matter. */
export function needsDefinitions(resource: SyncResource, header: string[], map: Map<string, string>): boolean {
  const catalogue = CATALOGUES[resource];
  return header.some((column) => {
    const mapped = map.get(column) ?? [...map].find(([from]) => from.toLowerCase() === column.trim().toLowerCase())?.[1];
    if (mapped === '' || (mapped === undefined && column.trim() === '')) return false;
    const target = targetOf(catalogue, mapped ?? column);
    return !target || target.kind === 'custom' || target.kind === 'custom_json';
  });
}

function mappedName(map: Map<string, string>, column: string, unused: Set<string>): string | undefined {
  if (map.has(column)) {
    unused.delete(column);
    return map.get(column);
  }
  const wanted = column.trim().toLowerCase();
  for (const [from, to] of map) {
    if (from.toLowerCase() === wanted) {
      unused.delete(from);
      return to;
    }
  }
  return undefined;
}
