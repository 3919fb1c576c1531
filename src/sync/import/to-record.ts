import { customFromCell, tagsFromCell, type CustomValue } from '../cells.js';
import type { ColumnMap } from './mapping.js';
import { canonicalValue } from '../enum-values.js';

/**
 * One CSV row as a bulk record. The columns present define what is synced: a column the file does
 * not have is not sent (the field is left alone), an empty cell in a column it has clears a
 * nullable field (null), and is skipped for fields that cannot be null (status, kind, name).
 */
export type RowResult = { ok: true; record: Record<string, unknown> } | { ok: false; code: string; message: string };

const PROTO = '__proto__';
// secure-json-parse on the server refuses a body with a __proto__ key outright, which would fail the whole batch.
const protoRefused: RowResult = { ok: false, code: 'validation_failed', message: 'custom_fields: "__proto__" is not allowed as a custom field name.' };

export function rowToRecord(map: ColumnMap, values: string[]): RowResult {
  if (values.length !== map.length) {
    return { ok: false, code: 'invalid_row', message: `The row has ${values.length} column(s); the header has ${map.length}.` };
  }
  const record: Record<string, unknown> = {};
  // A plain object, not a Map turned into one (Object.fromEntries cost ~0.3 µs a row), so
  // __proto__ is refused before it is set: on a plain object it would set the prototype instead.
  let custom: Record<string, CustomValue> | undefined;
  let address: Record<string, string | null> | undefined;
  let contact: Record<string, string | null> | undefined;
  let hasContact = false;
  for (let i = 0; i < map.length; i++) {
    const target = map[i]!;
    const cell = values[i]!;
    switch (target.kind) {
      case 'ignored':
        break;
      case 'id':
        if (cell !== '') record.id = cell;
        break;
      case 'field':
        if (cell !== '') record[target.field] = target.choices ? canonicalValue(target.choices, cell) : cell;
        else if (target.nullable) record[target.field] = null;
        break;
      case 'tags':
        record.tags = tagsFromCell(cell);
        break;
      case 'custom':
        custom ??= {};
        if (cell === '') break;
        if (target.key === PROTO) return protoRefused;
        custom[target.key] = customFromCell(cell);
        break;
      case 'custom_json': {
        custom ??= {};
        const extra = customJson(cell);
        if (typeof extra === 'string') return { ok: false, code: 'validation_failed', message: `custom_fields: ${extra}` };
        for (const [key, value] of extra) {
          if (key === PROTO) return protoRefused;
          custom[key] = value;
        }
        break;
      }
      case 'address':
        (address ??= {})[target.field] = cell === '' ? null : cell;
        break;
      case 'contact':
        (contact ??= {})[target.field] = cell === '' ? null : cell;
        hasContact ||= cell !== '';
        break;
    }
  }
  if (custom) record.custom_fields = custom;
  if (address) record.address = address;
  if (hasContact) record.contacts = [{ ...contact, is_primary: true }];
  return { ok: true, record };
}

/** The custom_fields column: a JSON object of custom values, or a message saying why not. */
function customJson(cell: string): [string, CustomValue][] | string {
  if (cell === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(cell);
  } catch {
    return 'expected a JSON object such as {"score": 5}.';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'expected a JSON object such as {"score": 5}.';
  return Object.entries(parsed as Record<string, CustomValue>);
}
