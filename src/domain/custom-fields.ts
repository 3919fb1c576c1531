/**
 * The rules of custom field definitions (docs/reference/custom-fields.md): which objects carry
 * them, their types, keys and limits, and which type changes keep every stored value valid.
 * Plain data, so the CLI and the dashboard can load it without zod.
 */

/** Records whose `custom_fields` a team can define today. */
export const FIELD_OBJECTS = ['lead', 'client', 'deal'] as const;
export type FieldObject = (typeof FIELD_OBJECTS)[number];

export const FIELD_TYPES = ['text', 'long_text', 'number', 'boolean', 'date', 'datetime', 'select', 'multi_select', 'email', 'url', 'phone'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FIELD_KEY = /^[a-z][a-z0-9_]{0,49}$/;
export const MAX_FIELDS_PER_OBJECT = 200;
export const MAX_OPTIONS = 500;

/** The types whose values are chosen from `options`. */
export const OPTION_TYPES: readonly FieldType[] = ['select', 'multi_select'];

/**
 * The built-in fields of each object (their response's top-level names): a custom field may not
 * take one, so a column or a filter named `email` always means the built-in field. Plain data for
 * the migration that defines held keys; test/unit/custom-field-rules.test.ts keeps it equal to the schemas.
 */
export const BUILT_IN_FIELDS: Record<FieldObject, readonly string[]> = {
  lead: 'id external_id first_name last_name email phone company title source status notes tags custom_fields converted_client_id created_at updated_at'.split(
    ' ',
  ),
  client: 'id external_id name kind email phone website address tags custom_fields contacts created_at updated_at'.split(' '),
  deal: 'id external_id title value currency stage win_probability client_id expected_close_date won_at lost_at lost_reason tags custom_fields created_at updated_at'.split(
    ' ',
  ),
};

/** A type may change only where every value of the old type is a value of the new one. */
export function typeChangeAllowed(from: FieldType, to: FieldType): boolean {
  if (from === to) return true;
  return (from === 'text' && to === 'long_text') || (from === 'long_text' && to === 'text') || (from === 'select' && to === 'multi_select');
}

/** The type a value already held suggests, for keys defined from stored records: number, boolean, else text. */
export function typeOfHeldValues(kinds: readonly string[]): FieldType {
  const set = new Set(kinds.filter((k) => k !== 'null'));
  if (set.size === 0) return 'text';
  if ([...set].every((k) => k === 'integer' || k === 'real')) return 'number';
  if ([...set].every((k) => k === 'true' || k === 'false')) return 'boolean';
  return 'text';
}

/**
 * A field key for a name records already hold as a custom field (a column an import put there):
 * lowercased, other characters as `_`, a letter first, at most 50 long, and apart from `taken`
 * (the built-in fields and the keys given so far) by a numbered suffix.
 */
export function fieldKeyFor(name: string, taken: ReadonlySet<string>): string {
  let base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!/^[a-z]/.test(base)) base = `f_${base}`.replace(/_+$/, '');
  base = base.slice(0, 50);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 50 - String(n).length - 1)}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
