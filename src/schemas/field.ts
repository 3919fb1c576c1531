import { z } from 'zod';
import { FIELD_KEY, FIELD_OBJECTS, FIELD_TYPES, MAX_OPTIONS, OPTION_TYPES } from '../domain/custom-fields.js';
import { Label, listEnvelope, listQueryFields } from './common.js';
import { buildOnce, lazySchema } from './lazy.js';

/** Custom field definitions (docs/reference/custom-fields.md): what a team adds to leads, clients and deals. */

const FieldOption = buildOnce(() =>
  z.strictObject({
    value: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[^\s,](.*[^\s,])?$/s, 'An option value has no spaces or commas at its ends.')
      .describe('What records hold and filters match; unique within the field'),
    label: Label(1, 200).describe('What people see'),
  }),
);

const Options = buildOnce(() =>
  z
    .array(FieldOption())
    .min(1)
    .max(MAX_OPTIONS)
    .refine((list) => new Set(list.map((o) => o.value)).size === list.length, { message: 'Option values must be unique.' })
    .describe(`select and multi_select: 1..${MAX_OPTIONS} options, in the order people see them`),
);

const Decimals = buildOnce(() => z.number().int().min(0).max(6).describe('number: how many decimals a value may have; none means any'));

export const FieldCreate = lazySchema(() =>
  z
    .strictObject({
      object: z.enum(FIELD_OBJECTS),
      key: z
        .string()
        .max(50)
        .regex(FIELD_KEY, 'A key is a lowercase letter, then up to 49 lowercase letters, digits or _.')
        .describe('The name in custom_fields, columns and filters'),
      label: Label(1, 200),
      type: z.enum(FIELD_TYPES),
      description: Label(0, 1000).nullable().optional(),
      required: z.boolean().default(false).describe('Set on create, never cleared'),
      options: Options().optional(),
      decimals: Decimals().optional(),
      position: z.number().int().min(0).max(10_000).optional().describe('Order among the object’s fields; the end by default'),
    })
    .superRefine((f, ctx) => {
      const optioned = OPTION_TYPES.includes(f.type);
      if (optioned && !f.options) ctx.addIssue({ code: 'custom', path: ['options'], message: `A ${f.type} field needs options.` });
      if (!optioned && f.options) ctx.addIssue({ code: 'custom', path: ['options'], message: 'Only select and multi_select fields have options.' });
      if (f.decimals !== undefined && f.type !== 'number') ctx.addIssue({ code: 'custom', path: ['decimals'], message: 'Only number fields have decimals.' });
    })
    .meta({
      id: 'FieldCreate',
      examples: [
        {
          object: 'client',
          key: 'industry',
          label: 'Industry',
          type: 'select',
          options: [
            { value: 'software', label: 'Software' },
            { value: 'logistics', label: 'Logistics' },
          ],
        },
      ],
    }),
);

export const FieldUpdate = lazySchema(() =>
  z
    .strictObject({
      label: Label(1, 200).optional(),
      description: Label(0, 1000).nullable().optional(),
      required: z.boolean().optional(),
      position: z.number().int().min(0).max(10_000).optional(),
      options: Options().optional().describe('The whole list: add and relabel freely; an option records still hold cannot go (409)'),
      type: z.enum(FIELD_TYPES).optional().describe('Only text ↔ long_text and select → multi_select (409 otherwise)'),
      decimals: Decimals().nullable().optional(),
    })
    .meta({ id: 'FieldUpdate' }),
);

export const Field = lazySchema(() =>
  z
    .object({
      id: z.string().describe('fld_…'),
      object: z.enum(FIELD_OBJECTS),
      key: z.string(),
      label: z.string(),
      type: z.enum(FIELD_TYPES),
      description: z.string().nullable(),
      required: z.boolean(),
      options: z.array(z.object({ value: z.string(), label: z.string() })).nullable(),
      decimals: z.number().int().nullable(),
      position: z.number().int(),
      created_at: z.string(),
      updated_at: z.string(),
    })
    .meta({ id: 'Field' }),
);

export const FieldList = lazySchema(() => listEnvelope(Field.unwrap()).meta({ id: 'FieldList' }));
export const FieldListQuery = lazySchema(() =>
  z.strictObject({
    object: z.enum(FIELD_OBJECTS).optional().describe('Only this object’s fields'),
    limit: listQueryFields().limit,
    cursor: listQueryFields().cursor,
  }),
);

export type Field = z.infer<typeof Field>;
export type FieldCreate = z.infer<typeof FieldCreate>;
export type FieldUpdate = z.infer<typeof FieldUpdate>;
export type FieldListQuery = z.infer<typeof FieldListQuery>;
