// The account's custom field definitions (docs/reference/custom-fields.md), as the record screens
// use them: fetched once per object and visit, fetched again when a field.* event comes over the
// live stream or the Fields page changes one, and turned into FieldSpecs so that the record page,
// the forms and the list show custom fields the way they show built-in ones.
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { FieldObject } from '../../../src/domain/custom-fields.js';
import { all, ApiProblem, can } from '../api.js';
import { onLiveEvent } from '../live.js';
import type { FormSpec } from './describe.js';
import { type FieldDefinition, fieldObjectOf, withCustomFields } from './custom-field-specs.js';

export type { FieldDefinition } from './custom-field-specs.js';
export { heldValueSpecs } from './custom-field-specs.js';

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
