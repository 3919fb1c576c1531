import type { FieldObject } from '../domain/custom-fields.js';
import { ApiError, type FieldError } from '../errors.js';
import type { Field } from '../schemas/field.js';
import type { Db } from '../store/db.js';
import { allFields } from '../store/fields.js';
import type { Ctx } from './context.js';

/**
 * A record's custom field values checked against its object's definitions
 * (docs/reference/custom-fields.md#values): each defined key's value valid for its type; `null`
 * clears; required fields set on create and never cleared. The one place that knows what an
 * account's records may hold beyond their built-in fields.
 */
type CustomValue = string | number | boolean | string[];
export type CustomValues = Record<string, CustomValue>;
type Incoming = Record<string, unknown> | undefined;

/** An account's definitions by object, read once and kept until a field changes (forgetFieldDefinitions). */
const cache = new WeakMap<Db, Map<FieldObject, Map<string, Field>>>();

function definitions(db: Db, object: FieldObject): Map<string, Field> {
  let byObject = cache.get(db);
  if (!byObject) cache.set(db, (byObject = new Map()));
  let fields = byObject.get(object);
  if (!fields) byObject.set(object, (fields = new Map(allFields(db, object).map((f) => [f.key, f]))));
  return fields;
}

/** One field's definition, from the same cache the value checks read (list filters use it). */
export const fieldDefinition = (ctx: Ctx, object: FieldObject, key: string): Field | undefined => definitions(ctx.db, object).get(key);

/** Called by every change of a definition, in its transaction: the next write reads them again. */
export function forgetFieldDefinitions(db: Db): void {
  cache.delete(db);
}

/** The values a new record holds: `input` checked, nulls left out, every required field given. */
export function valuesForCreate(ctx: Ctx, object: FieldObject, input: Incoming): CustomValues {
  const fields = definitions(ctx.db, object);
  const errors: FieldError[] = [];
  const values = apply(fields, {}, input ?? {}, errors);
  for (const field of fields.values()) {
    if (field.required && values[field.key] === undefined) {
      errors.push({ path: `custom_fields.${field.key}`, code: 'required', message: `${field.label} (${field.key}) is required for a new ${object}.` });
    }
  }
  return checked(object, values, errors);
}

/** The values after a PATCH: the keys it names change (null clears), the others stay. */
export function valuesForUpdate(ctx: Ctx, object: FieldObject, before: Record<string, unknown>, patch: Incoming): CustomValues {
  const fields = definitions(ctx.db, object);
  const errors: FieldError[] = [];
  const values = apply(fields, { ...(before as CustomValues) }, patch ?? {}, errors);
  return checked(object, values, errors);
}

function checked(object: FieldObject, values: CustomValues, errors: FieldError[]): CustomValues {
  if (errors.length) throw new ApiError('validation_failed', `The ${object}'s custom fields are invalid: ${errors[0]!.message}`, { errors });
  return values;
}

function apply(fields: Map<string, Field>, values: CustomValues, changes: Record<string, unknown>, errors: FieldError[]): CustomValues {
  for (const [key, value] of Object.entries(changes)) {
    const path = `custom_fields.${key}`;
    const field = fields.get(key);
    if (!field) {
      if (value === null && key in values) {
        delete values[key]; // a key held from before definitions existed can always be cleared
        continue;
      }
      const known = [...fields.keys()];
      const hint = known.length ? `Defined: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}.` : 'None is defined yet.';
      errors.push({ path, code: 'unknown_field', message: `No field '${key}' is defined: define it (POST /v1/fields) or leave it out. ${hint}` });
      continue;
    }
    if (value === null || (Array.isArray(value) && value.length === 0 && field.type === 'multi_select')) {
      if (field.required) errors.push({ path, code: 'required', message: `${field.label} (${key}) is required: it cannot be cleared.` });
      delete values[key];
      continue;
    }
    const problem = invalidValue(field, value);
    if (problem) errors.push({ path, code: 'invalid_value', message: `${field.label} (${key}): ${problem}` });
    else setOwn(values, key, value as CustomValue);
  }
  return values;
}

/** Sets a key as the object's own data, also `__proto__`: a key is data, never the object's prototype. */
function setOwn(values: CustomValues, key: string, value: CustomValue): void {
  Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
// Permissive on purpose: international domains (münchen.example) and local parts are valid.
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/u;
const PHONE = /^[0-9 +()\-./xX]{1,50}$/;

/** What is wrong with a (non-null) value for the field, or undefined when it is valid. */
function invalidValue(field: Field, value: unknown): string | undefined {
  const text = typeof value === 'string' ? value : undefined;
  switch (field.type) {
    case 'text':
    case 'long_text': {
      const max = field.type === 'text' ? 1000 : 65_535;
      if (text === undefined) return 'expected text.';
      return text.length > max ? `at most ${max.toLocaleString('en-US')} characters.` : undefined;
    }
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'expected a number.';
      if (field.decimals !== null && Number(value.toFixed(field.decimals)) !== value) return `at most ${field.decimals} decimals.`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'expected true or false.';
    case 'date': {
      const m = text === undefined ? null : DATE.exec(text);
      if (!m) return 'expected a date, YYYY-MM-DD.';
      const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
      const date = new Date(Date.UTC(year, month - 1, day));
      return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? undefined : 'no such date.';
    }
    case 'datetime':
      return text !== undefined && DATETIME.test(text) && !Number.isNaN(Date.parse(text))
        ? undefined
        : 'expected an RFC 3339 time with an offset, e.g. 2026-11-28T09:30:00Z.';
    case 'select':
      return text !== undefined && field.options!.some((o) => o.value === text) ? undefined : `expected one of ${optionList(field)}.`;
    case 'multi_select': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return `expected a list of ${optionList(field)}.`;
      const unknown = value.filter((v) => !field.options!.some((o) => o.value === v));
      if (unknown.length) return `not an option: ${unknown.join(', ')}; expected ${optionList(field)}.`;
      return new Set(value).size === value.length ? undefined : 'an option is listed twice.';
    }
    case 'email':
      return text !== undefined && text.length <= 254 && EMAIL.test(text) ? undefined : 'expected an email address.';
    case 'url':
      return text !== undefined && text.length <= 2000 && isWebUrl(text) ? undefined : 'expected an http or https URL.';
    case 'phone':
      return text !== undefined && PHONE.test(text) ? undefined : 'expected a phone number (digits, spaces and + ( ) - . / x; at most 50).';
  }
}

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const optionList = (field: Field): string => {
  const values = field.options!.map((o) => o.value);
  return values.length > 10 ? `${values.slice(0, 10).join(', ')}, … (${values.length} options)` : values.join(', ');
};
