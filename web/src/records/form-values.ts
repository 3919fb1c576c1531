// Between a record and its form: every input holds text (or a checkbox's boolean, or line-item
// rows), and a submit turns them into the API's body. Pure, so test/unit/web-form-values.test.ts
// can check it without a browser.
import { valueAt, type FieldSpec } from './describe.js';

export interface LineItemDraft {
  description: string;
  quantity: string;
  unit_price: string;
}
export type FormValue = string | boolean | LineItemDraft[];
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
    else if (f.type === 'currency' && mode === 'create') values[f.key] = 'EUR';
    // A required choice starts on its first option (a deal's stage: Lead in), as its select shows.
    else if (f.type === 'enum' && f.required && mode === 'create') values[f.key] = f.options?.[0]?.value ?? '';
    else values[f.key] = v === null || v === undefined ? '' : String(v);
  }
  return { ...values, ...defaults };
}

/** A number typed by a person; '' stays missing so the API names the field as required. */
const toNumber = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** One input's value as the API takes it; undefined means "not given". */
function apiValue(field: FieldSpec, value: FormValue): unknown {
  if (field.type === 'boolean') return Boolean(value);
  if (field.type === 'line-items') {
    return (value as LineItemDraft[]).map((l) => ({ description: l.description, quantity: toNumber(l.quantity), unit_price: toNumber(l.unit_price) }));
  }
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
  return text;
}

function setAt(body: Record<string, any>, key: string, value: unknown): void {
  const parts = key.split('.');
  let target = body;
  for (const part of parts.slice(0, -1)) target = target[part] ??= {};
  target[parts.at(-1)!] = value;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

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
      if (value === null || (f.type === 'tags' && (value as string[]).length === 0)) continue;
      setAt(body, f.key, value);
    } else {
      const before = valueAt(record, f.key);
      const comparable =
        f.type === 'line-items'
          ? (before as any[] | undefined)?.map(({ description, quantity, unit_price }) => ({ description, quantity, unit_price }))
          : before;
      if (!same(comparable, value)) setAt(body, f.key, value);
    }
  }
  return body;
}
