import type { CrmClient } from '../../client/client.js';
import type { FieldType } from '../../domain/custom-fields.js';
import { SyncUsageError } from '../errors.js';
import { fieldObjectOf, listDefinitions, type FieldDef } from '../fields/definitions.js';
import type { CopyResource } from '../mask/rules.js';

/**
 * The custom field definitions of `crm sync copy` (docs/sync.md, "Custom fields in a copy"),
 * before any record: a record's custom_fields hold only keys the target defines, with values of
 * their type. A field the target lacks is defined there as in the source; one it has with the same
 * type gets the source's options it lacks (adding options changes no record); one it has with
 * another type stops the copy before anything is written, since no value of the one is sure to
 * be a value of the other. A plan only counts what it would do.
 */
export interface CopiedFields {
  /** `object.key` of the fields defined in the target (a plan: that would be). */
  created: string[];
  /** `object.key` of the fields that were given options. */
  updated: string[];
  /** The source's field types, by resource, for masking each by its type. */
  types: Map<CopyResource, Map<string, FieldType>>;
}

type Definition = FieldDef & { id: string; description?: string | null; required?: boolean };
const WITH_FIELDS = ['clients', 'leads', 'deals'] as const;

export async function copyFieldDefinitions(source: CrmClient, target: CrmClient, resources: readonly CopyResource[], plan: boolean): Promise<CopiedFields> {
  const copied: CopiedFields = { created: [], updated: [], types: new Map() };
  const work: { resource: (typeof WITH_FIELDS)[number]; from: Definition[]; to: Map<string, Definition> }[] = [];
  const conflicts: string[] = [];
  for (const resource of WITH_FIELDS.filter((r) => resources.includes(r))) {
    const object = fieldObjectOf(resource);
    const from = (await listDefinitions(source, object)) as Definition[] | undefined;
    if (!from) continue; // a source before definitions: its records' keys are copied as they are
    copied.types.set(resource, new Map(from.map((f) => [f.key, f.type])));
    const to = (await listDefinitions(target, object)) as Definition[] | undefined;
    if (!to) continue; // a target before definitions takes any key
    const byKey = new Map(to.map((f) => [f.key, f]));
    for (const field of from) {
      const there = byKey.get(field.key);
      if (there && there.type !== field.type) conflicts.push(`${object}.${field.key} is a ${field.type} in the source and a ${there.type} in the target`);
    }
    work.push({ resource, from, to: byKey });
  }
  if (conflicts.length)
    throw new SyncUsageError(
      `The target defines ${conflicts.length === 1 ? 'a custom field' : 'custom fields'} with another type than the source: ${conflicts.join('; ')}. ` +
        'Nothing was written. Change or delete the field in the target (PATCH or DELETE /v1/fields/{id}), then copy again.',
    );
  for (const { resource, from, to } of work) {
    const object = fieldObjectOf(resource);
    for (const field of from) {
      const there = to.get(field.key);
      if (!there) {
        copied.created.push(`${object}.${field.key}`);
        if (!plan) await target.post('/v1/fields', createBody(object, field));
        continue;
      }
      const have = new Set((there.options ?? []).map((o) => o.value));
      const missing = (field.options ?? []).filter((o) => !have.has(o.value));
      if (missing.length === 0) continue;
      copied.updated.push(`${object}.${field.key}`);
      if (!plan) await target.request('PATCH', `/v1/fields/${encodeURIComponent(there.id)}`, { body: { options: [...there.options!, ...missing] } });
    }
  }
  return copied;
}

function createBody(object: string, field: Definition): Record<string, unknown> {
  return {
    object,
    key: field.key,
    label: field.label,
    type: field.type,
    ...(field.description ? { description: field.description } : {}),
    ...(field.required ? { required: true } : {}),
    ...(field.options ? { options: field.options } : {}),
    ...(field.decimals !== null && field.decimals !== undefined ? { decimals: field.decimals } : {}),
  };
}
