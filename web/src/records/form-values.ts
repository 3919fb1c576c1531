// Between a record and its form: every input holds text (or a checkbox's boolean, or line-item
// rows), and a submit turns them into the API's body. Pure, so test/unit/web-form-values.test.ts
// can check it without a browser.
import { valueAt, type FieldSpec } from './describe.js';

export interface LineItemDraft {
  description: string;
  quantity: string;
  unit_price: string;
}
/** A multi-select's chosen option values are a string[]; every other input holds text, a boolean or line items. */
export type FormValue = string | boolean | LineItemDraft[] | string[];
export type FormValues = Record<string, FormValue>;

export const emptyLine = (): LineItemDraft => ({ description: '', quantity: '1', unit_price: '' });

const editableIn = (field: FieldSpec, mode: 'create' | 'edit') => field.edit === 'always' || field.edit === (mode === 'create' ? 'create' : 'update');

export const formFields = (fields: FieldSpec[], mode: 'create' | 'edit'): FieldSpec[] => fields.filter((f) => editableIn(f, mode));

/** What each input starts with: the record's values when editing, defaults when creating. */
export function initialValues(
  fields: FieldSpec[],
  mode: 'create' | 'edit',
  record?: Record<string, any>,
  defaults: Record<string, FormValue> = {},
): FormValues {
  const values: FormValues = {};
  for (const f of formFields(fields, mode)) {
    const v = mode === 'edit' ? valueAt(record, f.key) : undefined;
    if (f.type === 'boolean') values[f.key] = Boolean(v);
    else if (f.type === 'line-items') {
      values[f.key] = Array.isArray(v)
        ? v.map((l) => ({ description: l.description, quantity: String(l.quantity), unit_price: String(l.unit_price) }))
        : [emptyLine()];
    } else if (f.type === 'tags') values[f.key] = Array.isArray(v) ? v.join(', ') : '';
    else if (f.type === 'multi-select') values[f.key] = Array.isArray(v) ? v.map(String) : [];
    else if (f.type === 'datetime') values[f.key] = typeof v === 'string' ? toLocalInput(v) : '';
    else if (f.type === 'currency' && mode === 'create') values[f.key] = 'EUR';
    // A required choice starts on its first option (a deal's stage: Lead in), as its select shows.
    else if (f.type === 'enum' && f.required && mode === 'create') values[f.key] = f.options?.[0]?.value ?? '';
    else values[f.key] = v === null || v === undefined ? '' : String(v);
  }
  return { ...values, ...defaults };
}

/** `YYYY-MM-DDTHH:mm` of `n` digits: the padded parts of a local time. */
const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');

/**
 * An RFC 3339 time as a datetime-local input shows it: the browser's local time, seconds only
 * when it has some. A value that is no time stays as it is (the input then shows it empty).
 */
export function toLocalInput(iso: string): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  const seconds = t.getSeconds() ? `:${pad(t.getSeconds())}` : '';
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}${seconds}`;
}

/**
 * A datetime-local input's value (the browser's local time, no zone) as RFC 3339 with the browser's
 * offset at that moment, `2026-11-28T09:30:00+01:00`: the instant the person meant, in their own clock.
 */
export function fromLocalInput(local: string): string {
  const t = new Date(local); // a date-time string without a zone is local time
  if (Number.isNaN(t.getTime())) return local; // the API says what is wrong with it
  const offset = -t.getTimezoneOffset();
  const zone = offset === 0 ? 'Z' : `${offset > 0 ? '+' : '-'}${pad(Math.trunc(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}${zone}`;
}

/** A number typed by a person; '' stays missing so the API names the field as required. */
const toNumber = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** One input's value as the API takes it; undefined means "not given". */
function apiValue(field: FieldSpec, value: FormValue): unknown {
  if (field.type === 'boolean') return Boolean(value);
  if (field.type === 'line-items') {
    return (value as LineItemDraft[]).map((l) => ({ description: l.description, quantity: toNumber(l.quantity), unit_price: toNumber(l.unit_price) }));
  }
  // An empty list is no value (docs/reference/custom-fields.md): cleared, like an emptied input.
  if (field.type === 'multi-select') return (value as string[]).length ? value : null;
  const text = String(value).trim();
  if (field.type === 'tags')
    return text
      ? text
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : [];
  if (text === '') return null;
  if (field.type === 'money') return toNumber(text);
  if (field.type === 'number') return Number(text);
  if (field.type === 'datetime') return fromLocalInput(text);
  return text;
}

function setAt(body: Record<string, any>, key: string, value: unknown): void {
  const parts = key.split('.');
  let target = body;
  for (const part of parts.slice(0, -1)) target = target[part] ??= {};
  target[parts.at(-1)!] = value;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Unchanged, as the field's type sees it: one instant in two offsets, an unticked box and no value of a custom yes/no field. */
function unchanged(field: FieldSpec, before: unknown, after: unknown): boolean {
  if (field.type === 'datetime' && typeof before === 'string' && typeof after === 'string') return Date.parse(before) === Date.parse(after);
  if (field.custom && field.type === 'boolean') return Boolean(before) === after;
  if (field.type === 'multi-select' && Array.isArray(before) && before.length === 0) return after === null;
  return same(before, after);
}

/** A custom yes/no field left unticked on a new record is left out (no value), unless it is required: then it is a No. */
const leftOut = (field: FieldSpec, value: unknown): boolean => value === null || (field.custom === true && value === false && !field.required);

/**
 * The required custom fields left empty: the form names them before sending (a yes/no field always
 * has a value). Custom fields only: the API is the validator of built-in ones, and names them itself.
 */
export function missingRequired(fields: FieldSpec[], values: FormValues, mode: 'create' | 'edit'): FieldSpec[] {
  return formFields(fields, mode).filter((f) => f.custom && f.required && f.type !== 'boolean' && apiValue(f, values[f.key] ?? '') === null);
}

/**
 * The request body. A create sends what was filled in (an empty input is left out, so a required
 * field missing is the API's error beside it). An edit sends only what changed, an emptied input
 * as null (cleared).
 */
export function toBody(fields: FieldSpec[], values: FormValues, mode: 'create' | 'edit', record?: Record<string, any>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of formFields(fields, mode)) {
    const value = apiValue(f, values[f.key] ?? '');
    if (mode === 'create') {
      if (leftOut(f, value) || (f.type === 'tags' && (value as string[]).length === 0)) continue;
      setAt(body, f.key, value);
    } else {
      const before = valueAt(record, f.key);
      const comparable =
        f.type === 'line-items'
          ? (before as any[] | undefined)?.map(({ description, quantity, unit_price }) => ({ description, quantity, unit_price }))
          : before;
      if (!unchanged(f, comparable, value)) setAt(body, f.key, value);
    }
  }
  return body;
}
