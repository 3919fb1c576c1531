import { customFromCell, tagsFromCell, type CustomValue } from '../cells.js';
import type { ColumnMap } from './mapping.js';
import { canonicalValue } from '../enum-values.js';
import { cellToValue, invalidValue } from '../fields/field-cells.js';

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
        if (!target.field) {
          custom[target.key] = customFromCell(cell);
          break;
        }
        {
          const read = cellToValue(target.field, cell);
          if (!read.ok) return invalidCell(target.column ?? `custom.${target.key}`, target.key, read.message);
          // An empty list (a multi_select cell of separators only) is no value, as an empty cell.
          if (!target.checkOnly && !(Array.isArray(read.value) && read.value.length === 0)) custom[target.key] = read.value;
        }
        break;
      case 'custom_json': {
        custom ??= {};
        const extra = customJson(cell);
        if (typeof extra === 'string') return { ok: false, code: 'validation_failed', message: `custom_fields: ${extra}` };
        for (const [key, value] of extra) {
          if (key === PROTO) return protoRefused;
          if (target.defined) {
            const field = target.defined.get(key);
            if (!field) return unknownKey(key, target.defined);
            const why = invalidValue(field, value);
            if (why) return invalidCell('custom_fields', key, why);
          }
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

/** A cell its field cannot take: the row fails with the column and the field named, as the server names `custom_fields.<key>`. */
function invalidCell(column: string, key: string, why: string): RowResult {
  return { ok: false, code: 'invalid_value', message: `Column "${column}" (custom_fields.${key}): ${why}` };
}

function unknownKey(key: string, defined: Map<string, unknown>): RowResult {
  const keys = [...defined.keys()];
  return {
    ok: false,
    code: 'unknown_field',
    message: `Column "custom_fields": no field is defined with the key "${key}"${keys.length ? ` (defined: ${keys.slice(0, 20).join(', ')})` : ''}. Define the field first (POST /v1/fields), or remove the key.`,
  };
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
