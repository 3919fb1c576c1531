import type { FieldSpec } from '../describe.js';

/** Fields every record has (docs/reference/basics.md#resources-and-operations), shown last on a record page. */
export const timestamps: FieldSpec[] = [
  { key: 'created_at', label: 'Created', type: 'datetime' },
  { key: 'updated_at', label: 'Updated', type: 'datetime' },
];

/** The sync fields of leads, clients and deals: tags are edited as a comma-separated list; the external id is set by imports. */
export const syncFields: FieldSpec[] = [
  { key: 'tags', label: 'Tags', type: 'tags', edit: 'always', hint: 'Comma-separated', hideEmpty: true },
  { key: 'external_id', label: 'External id', type: 'text', hideEmpty: true },
];
