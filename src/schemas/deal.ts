import { z } from 'zod';
import { STAGES } from '../domain/pipeline.js';
import {
  Currency,
  DateOnly,
  MoneyAmount,
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

export const Stage = lazySchema(() => z.enum(STAGES).meta({ id: 'Stage' }));

// The fields' schemas, made inside each schema that uses them when it is built (lazy.ts).
const dealFields = () => ({
  title: z.string().min(1).max(200),
  value: MoneyAmount(),
  currency: Currency(),
  stage: Stage.unwrap(),
  win_probability: z.number().min(0).max(1).optional().describe("Defaults to the stage's probability"),
  client_id: z.string().max(100).nullable().optional(),
  expected_close_date: DateOnly().nullable().optional(),
  lost_reason: z.string().max(500).nullable().optional(),
  ...syncFields(),
});

export const DealCreate = lazySchema(() =>
  z.strictObject(dealFields()).meta({ id: 'DealCreate', examples: [{ title: 'Pilot', value: 1200.5, currency: 'EUR', stage: 'proposal' }] }),
);

export const DealUpdate = lazySchema(() => {
  const fields = dealFields();
  return z
    .strictObject({
      ...fields,
      title: fields.title.optional(),
      value: fields.value.optional(),
      currency: fields.currency.optional(),
      stage: fields.stage.optional(),
    })
    .meta({ id: 'DealUpdate' });
});

export const Deal = lazySchema(() =>
  z
    .object({
      id: z.string(),
      external_id: z.string().nullable(),
      title: z.string(),
      value: z.number(),
      currency: z.string(),
      stage: Stage.unwrap(),
      win_probability: z.number(),
      client_id: z.string().nullable(),
      expected_close_date: z.string().nullable(),
      won_at: z.string().nullable(),
      lost_at: z.string().nullable(),
      lost_reason: z.string().nullable(),
      tags: z.array(z.string()),
      custom_fields: CustomFieldValues(),
      ...recordFields(),
    })
    .meta({ id: 'Deal' }),
);

export const DealLose = lazySchema(() => z.strictObject({ reason: z.string().max(500).optional() }).meta({ id: 'DealLose' }));
// Any stage is accepted here so that reopening into won or lost is refused by the pipeline
// rules as 409 invalid_transition (docs/reference/states.md#deals-the-pipeline), not as a schema error.
export const DealReopen = lazySchema(() =>
  z
    .strictObject({ stage: Stage.unwrap() })
    .meta({ id: 'DealReopen', description: 'stage must be an open stage (lead_in, qualified, proposal, negotiation); won or lost is 409 invalid_transition.' }),
);

export const DealListQuery = lazySchema(() =>
  z.strictObject({
    ...listQueryFields(),
    ...listSortFields(['title', 'value', 'expected_close_date'], 'title, value (the amount as it reads, whatever the currency) or expected_close_date'),
    ...searchField("title and the client's name"),
    external_id: syncFilterFields().external_id,
    tag: syncFilterFields().tag,
    stage: Stage.unwrap().optional(),
    client_id: z.string().max(100).optional(),
  }),
);

export const DealList = lazySchema(() => listEnvelope(Deal.unwrap()).meta({ id: 'DealList' }));

/** The filters of a list that a summary of the pipeline takes too (no stage: it is what the summary groups by). */
export const DealSummaryQuery = lazySchema(() =>
  z.strictObject({
    created_after: listQueryFields().created_after,
    updated_after: listQueryFields().updated_after,
    ...searchField("title and the client's name"),
    tag: syncFilterFields().tag,
    client_id: z.string().max(100).optional(),
  }),
);

const MoneyTotal = () =>
  z.object({
    currency: z.string(),
    count: z.number().int().describe('Deals in this currency'),
    value: z
      .union([z.number(), z.string().regex(/^\d+(\.\d+)?$/)])
      .describe(
        'Their sum in major units, added up in minor units (exact: 0.1 + 0.2 is 0.3): a number, or beyond 2^53 minor units (where a JSON number stops being exact) the exact decimal as a string, e.g. "12000000000000.003"',
      ),
  });

export const DealSummary = lazySchema(() =>
  z
    .object({
      count: z.number().int().describe('Deals that match, in every stage'),
      stages: z
        .array(
          z.object({
            stage: Stage.unwrap(),
            count: z.number().int(),
            totals: z.array(MoneyTotal()).describe("The value of the stage's deals per currency, by currency code; empty when it has none"),
          }),
        )
        .describe('Every stage of the pipeline, in its order, empty ones included'),
    })
    .meta({
      id: 'DealSummary',
      examples: [
        {
          count: 3,
          stages: [
            {
              stage: 'lead_in',
              count: 2,
              totals: [
                { currency: 'EUR', count: 1, value: 1500.5 },
                { currency: 'USD', count: 1, value: 900 },
              ],
            },
            { stage: 'qualified', count: 1, totals: [{ currency: 'EUR', count: 1, value: 200 }] },
          ],
        },
      ],
    }),
);

export const Pipeline = lazySchema(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      stages: z.array(z.object({ id: Stage.unwrap(), name: z.string(), position: z.number().int(), win_probability: z.number(), closed: z.boolean() })),
    })
    .meta({ id: 'Pipeline' }),
);

export type Deal = z.infer<typeof Deal>;
export type DealCreate = z.infer<typeof DealCreate>;
export type DealUpdate = z.infer<typeof DealUpdate>;
export type DealListQuery = z.infer<typeof DealListQuery>;
export type DealSummaryQuery = z.infer<typeof DealSummaryQuery>;
export type DealSummary = z.infer<typeof DealSummary>;
export type DealSort = DealListQuery['sort'];
