import type { FieldCreate } from '../schemas/field.js';
import type { Ctx } from '../services/context.js';
import { createField, listFields } from '../services/fields.js';
import { INDUSTRIES } from './seed-data.js';

/**
 * The custom fields a seeded sandbox defines (docs/sandbox.md#seeded-data), as a team that moved from
 * HubSpot or Pipedrive would have them: each seeded record holds values of its object's fields.
 */
export const LIFECYCLE_OF_STATUS: Record<string, string> = {
  new: 'lead',
  contacted: 'marketing_qualified',
  qualified: 'sales_qualified',
  unqualified: 'other',
};
export const PRODUCT_LINES = ['platform', 'services', 'support', 'training'] as const;

const SEED_FIELDS: FieldCreate[] = [
  {
    object: 'client',
    key: 'industry',
    label: 'Industry',
    type: 'select',
    required: false,
    options: INDUSTRIES.map((name) => ({ value: name, label: name })),
  },
  { object: 'client', key: 'employees', label: 'Employees', type: 'number', decimals: 0, required: false },
  {
    object: 'lead',
    key: 'lifecycle_stage',
    label: 'Lifecycle stage',
    type: 'select',
    required: false,
    options: [
      { value: 'lead', label: 'Lead' },
      { value: 'marketing_qualified', label: 'Marketing qualified' },
      { value: 'sales_qualified', label: 'Sales qualified' },
      { value: 'customer', label: 'Customer' },
      { value: 'other', label: 'Other' },
    ],
  },
  {
    object: 'deal',
    key: 'product_line',
    label: 'Product line',
    type: 'multi_select',
    required: false,
    options: PRODUCT_LINES.map((value) => ({ value, label: value[0]!.toUpperCase() + value.slice(1) })),
  },
];

/**
 * Defines the seed's fields that the account does not have yet (a reset keeps definitions, so it
 * finds them), without events: they come with the data, as the seed's records do.
 */
export function defineSeedFields(ctx: Ctx): void {
  const defined = new Set(listFields(ctx, { limit: 1000 }).data.map((f) => `${f.object}.${f.key}`));
  for (const field of SEED_FIELDS) if (!defined.has(`${field.object}.${field.key}`)) createField(ctx, field, { quiet: true });
}
