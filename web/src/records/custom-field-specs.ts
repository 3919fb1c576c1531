// Custom field definitions (docs/reference/custom-fields.md) as the record screens describe fields
// (describe.ts): pure, so test/unit/web-fields.test.ts checks them without a browser or the API.
import type { FieldObject, FieldType } from '../../../src/domain/custom-fields.js';
import type { FieldSpec, FormSpec, ResourceSpec } from './describe.js';

interface FieldOption {
  value: string;
  label: string;
}

export interface FieldDefinition {
  id: string;
  object: FieldObject;
  key: string;
  label: string;
  type: FieldType;
  description: string | null;
  required: boolean;
  options: FieldOption[] | null;
  decimals: number | null;
  position: number;
  created_at: string;
  updated_at: string;
}

/** The object whose custom fields a resource's records hold (`lead` for leads); none for invoices. */
export function fieldObjectOf(spec: FormSpec): FieldObject | undefined {
  const prefix = (spec as Partial<ResourceSpec>).eventPrefix;
  return prefix === 'lead' || prefix === 'client' || prefix === 'deal' ? prefix : undefined;
}

const SPEC_TYPES: Record<FieldType, FieldSpec['type']> = {
  text: 'text',
  long_text: 'longtext',
  number: 'number',
  boolean: 'boolean',
  date: 'date',
  datetime: 'datetime',
  select: 'select',
  multi_select: 'multi-select',
  email: 'email',
  url: 'url',
  phone: 'phone',
};

/** A definition as the record screens describe a field: its value at `custom_fields.<key>`, where validation errors name it too. */
export function customFieldSpec(d: FieldDefinition): FieldSpec {
  return {
    key: `custom_fields.${d.key}`,
    label: d.label,
    type: SPEC_TYPES[d.type],
    edit: 'always',
    custom: true,
    ...(d.required ? { required: true } : {}),
    ...(d.options ? { options: d.options } : {}),
    ...(d.decimals !== null ? { decimals: d.decimals } : {}),
    ...(d.description ? { hint: d.description } : {}),
  };
}

/**
 * The resource's fields with its custom fields, in their order, after the built-in ones and before
 * tags, the external id and the timestamps (the fields every record has).
 */
export function withCustomFields<T extends FormSpec>(spec: T, definitions: FieldDefinition[]): T {
  const builtIn = spec.fields.filter((f) => !f.custom);
  const at = builtIn.findIndex((f) => f.key === 'tags' || f.key === 'external_id' || f.key === 'created_at');
  const cut = at < 0 ? builtIn.length : at;
  return { ...spec, fields: [...builtIn.slice(0, cut), ...definitions.map(customFieldSpec), ...builtIn.slice(cut)] };
}

/**
 * Without fields:read the definitions are hidden, but a record still holds its values: shown by
 * their keys, typed by what they hold, never edited.
 */
export function heldValueSpecs(record: Record<string, any>): FieldSpec[] {
  return Object.entries((record.custom_fields ?? {}) as Record<string, unknown>).map(([key, value]) => ({
    key: `custom_fields.${key}`,
    label: key,
    type: Array.isArray(value) ? 'tags' : typeof value === 'boolean' ? 'boolean' : typeof value === 'number' ? 'number' : 'text',
    custom: true,
  }));
}
