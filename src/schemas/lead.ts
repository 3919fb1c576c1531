import { z } from 'zod';
import {
  Currency as CurrencyCode,
  Email,
  LongText,
  Phone,
  ShortText,
  listEnvelope,
  listQueryFields,
  listSortFields,
  recordFields,
  searchField,
  syncFields,
  syncFilterFields,
  CustomFieldValues,
} from './common.js';
import { lazySchema } from './lazy.js';

export const LEAD_SOURCES = ['web', 'referral', 'event', 'cold_call', 'partner', 'other'] as const;
export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'unqualified', 'converted'] as const;

// The fields' schemas, made inside each schema that uses them when it is built (lazy.ts).
const leadFields = () => ({
  first_name: ShortText().nullable().optional(),
  last_name: ShortText().nullable().optional(),
  email: Email().nullable().optional(),
  phone: Phone().nullable().optional(),
  company: ShortText().nullable().optional(),
  title: ShortText().nullable().optional(),
  source: z.enum(LEAD_SOURCES).nullable().optional(),
  status: z.enum(LEAD_STATUSES).optional(),
  notes: LongText().nullable().optional(),
  ...syncFields(),
});

const NAMING_FIELDS = ['first_name', 'last_name', 'email', 'company'] as const;

export const LeadCreate = lazySchema(() =>
  z
    .strictObject(leadFields())
    .refine((l) => NAMING_FIELDS.some((f) => l[f]), {
      message: 'A lead needs at least one of first_name, last_name, email or company.',
      path: ['first_name'],
    })
    .meta({
      id: 'LeadCreate',
      examples: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', company: 'Analytical Engines Ltd', source: 'web' }],
    }),
);

export const LeadUpdate = lazySchema(() => z.strictObject(leadFields()).meta({ id: 'LeadUpdate' }));

export const Lead = lazySchema(() =>
  z
    .object({
      id: z.string(),
      external_id: z.string().nullable(),
      first_name: z.string().nullable(),
      last_name: z.string().nullable(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
      company: z.string().nullable(),
      title: z.string().nullable(),
      source: z.enum(LEAD_SOURCES).nullable(),
      status: z.enum(LEAD_STATUSES),
      notes: z.string().nullable(),
      tags: z.array(z.string()),
      custom_fields: CustomFieldValues(),
      converted_client_id: z.string().nullable(),
      ...recordFields(),
    })
    .meta({ id: 'Lead' }),
);

export const LeadListQuery = lazySchema(() =>
  z.strictObject({
    ...listQueryFields(),
    ...listSortFields(['name', 'company', 'email'], 'name (first then last name), company or email'),
    ...searchField('first and last name, email, company and phone'),
    ...syncFilterFields(),
    status: z.enum(LEAD_STATUSES).optional(),
    source: z.enum(LEAD_SOURCES).optional(),
  }),
);

export const LeadList = lazySchema(() => listEnvelope(Lead.unwrap()).meta({ id: 'LeadList' }));

export type Lead = z.infer<typeof Lead>;
export type LeadCreate = z.infer<typeof LeadCreate>;
export type LeadUpdate = z.infer<typeof LeadUpdate>;
export type LeadListQuery = z.infer<typeof LeadListQuery>;
export type LeadSort = LeadListQuery['sort'];

/** POST /v1/leads/{id}/convert: the client is made from the lead; fields given here override. */
export const LeadConvert = lazySchema(() =>
  z
    .strictObject({
      client_id: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe('Convert into this existing client instead of making one (as Salesforce lets a lead join an existing account); `client` must then be absent'),
      client: z
        .strictObject({
          name: z.string().min(1).max(200).optional(),
          kind: z.enum(['company', 'person']).optional(),
          external_id: z.string().min(1).max(255).optional(),
        })
        .optional(),
      deal: z
        .strictObject({
          title: z.string().min(1).max(200).optional(),
          value: z.number().nonnegative().max(1e13),
          currency: CurrencyCode(),
          stage: z.enum(['lead_in', 'qualified', 'proposal', 'negotiation', 'won', 'lost']).optional(),
        })
        .optional()
        .describe('Also create a deal for the new client'),
    })
    .refine((c) => !(c.client_id && c.client), { message: 'Give client_id (an existing client) or client (a new one), not both.', path: ['client_id'] })
    .meta({ id: 'LeadConvert' }),
);

export type LeadConvert = z.infer<typeof LeadConvert>;
