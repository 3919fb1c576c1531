// The account's custom field definitions (docs/reference/custom-fields.md), as the record screens
// use them: fetched once per object and visit, fetched again when a field.* event comes over the
// live stream or the Fields page changes one, and turned into FieldSpecs so that the record page,
// the forms and the list show custom fields the way they show built-in ones.
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { FieldObject, FieldType } from '../../../src/domain/custom-fields.js';
import { all, ApiProblem, can } from '../api.js';
import { onLiveEvent } from '../live.js';
import type { FieldSpec, FormSpec, ResourceSpec } from './describe.js';

export interface FieldOption {
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

/** What is known of one object's definitions: loading, the list, hidden (no fields:read), or the API's refusal. */
export type Definitions = { state: 'loading' } | { state: 'ready'; fields: FieldDefinition[] } | { state: 'hidden' } | { state: 'failed'; message: string };

const known = signal<Partial<Record<FieldObject, Definitions>>>({});
const inFlight = new Map<FieldObject, Promise<void>>();

/** Fetches an object's definitions (again); what was known stays shown until the answer comes. */
export function refreshDefinitions(object: FieldObject): Promise<void> {
  const running = inFlight.get(object);
  if (running) return running;
  if (!can('fields:read')) {
    known.value = { ...known.value, [object]: { state: 'hidden' } };
    return Promise.resolve();
  }
  if (!known.value[object]) known.value = { ...known.value, [object]: { state: 'loading' } };
  const done = all<FieldDefinition>(`/v1/fields?object=${object}`)
    .then(
      (fields): Definitions => ({ state: 'ready', fields: [...fields].sort((a, b) => a.position - b.position) }),
      (e: Error): Definitions => (e instanceof ApiProblem && e.status === 403 ? { state: 'hidden' } : { state: 'failed', message: e.message }),
    )
    .then((result) => {
      known.value = { ...known.value, [object]: result };
    })
    .finally(() => inFlight.delete(object));
  inFlight.set(object, done);
  return done;
}

// A field defined, changed or deleted anywhere (another tab, the CLI, the assistant) shows at once.
onLiveEvent((e) => {
  if (!e.type.startsWith('field.')) return;
  const object = (e.data.object as { object?: FieldObject }).object;
  if (object && known.value[object]) void refreshDefinitions(object);
});

/** An object's definitions, fetched on first use. */
export function useDefinitions(object: FieldObject | undefined): Definitions {
  const current = object ? known.value[object] : undefined;
  useEffect(() => {
    if (object && !known.value[object]) void refreshDefinitions(object);
  }, [object]);
  if (!object) return { state: 'ready', fields: [] };
  return current ?? { state: 'loading' };
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

/**
 * A resource's description with its custom fields once they are known (`ready` false until then).
 * Hidden or refused definitions leave the built-in fields only; `problem` says why.
 */
export function useCustomFields<T extends FormSpec>(spec: T): { spec: T; ready: boolean; hidden: boolean; problem: string } {
  const definitions = useDefinitions(fieldObjectOf(spec));
  switch (definitions.state) {
    case 'ready':
      return { spec: withCustomFields(spec, definitions.fields), ready: true, hidden: false, problem: '' };
    case 'loading':
      return { spec, ready: false, hidden: false, problem: '' };
    case 'hidden':
      return { spec, ready: true, hidden: true, problem: '' };
    default:
      return { spec, ready: true, hidden: false, problem: `Custom fields could not be loaded: ${definitions.message}` };
  }
}
