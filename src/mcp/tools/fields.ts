import { z } from 'zod';
import { Field, FieldCreate, FieldListQuery, FieldUpdate } from '../../schemas/field.js';
import type { McpBackend } from '../backend.js';
import { type CrmTool, pageOf, pathId, toolsOf } from '../tool-kit.js';

type Keyed = { idempotency_key?: string };
const FieldId = z.object({ id: z.string().describe('The field id (fld_…)') });

/** Custom field definitions (docs/reference/custom-fields.md): what a team adds to leads, clients and deals. */
export function fieldTools(api: McpBackend): CrmTool[] {
  const tool = toolsOf('fields');
  return [
    tool({
      name: 'list_fields',
      title: 'List custom fields',
      description:
        'The custom fields defined for leads, clients and deals (or one object), with their keys, types and options: what records may hold in custom_fields.',
      kind: 'read',
      input: FieldListQuery.unwrap(),
      output: pageOf(Field.unwrap()),
      run: (q) => api.call('GET', '/v1/fields', { query: q }),
    }),
    tool({
      name: 'create_field',
      title: 'Create a custom field',
      description:
        'Defines a custom field of leads, clients or deals: a key (lowercase, e.g. industry), a label and a type (text, long_text, number, boolean, date, datetime, select and multi_select with options, email, url, phone).',
      kind: 'create',
      input: FieldCreate.unwrap(),
      output: Field.unwrap(),
      run: ({ idempotency_key, ...body }: Keyed) => api.call('POST', '/v1/fields', { body, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'update_field',
      title: 'Update a custom field',
      description:
        'Changes a custom field’s label, description, required, position or options (the whole list; an option records hold cannot be removed). The type changes only text ↔ long_text and select → multi_select.',
      kind: 'update',
      input: z.object({ ...FieldId.shape, ...FieldUpdate.unwrap().shape }),
      output: Field.unwrap(),
      run: ({ id, idempotency_key, ...body }: { id: string } & Keyed) =>
        api.call('PATCH', `/v1/fields/${pathId(id)}`, { body, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'delete_field',
      title: 'Delete a custom field',
      description: 'Deletes a custom field and its value on every record that holds one.',
      kind: 'destroy',
      input: FieldId,
      output: z.object({ id: z.string(), deleted: z.literal(true), values_removed: z.number().int() }),
      run: ({ id, idempotency_key }: { id: string } & Keyed) => api.call('DELETE', `/v1/fields/${pathId(id)}`, { idempotencyKey: idempotency_key }),
    }),
  ];
}
