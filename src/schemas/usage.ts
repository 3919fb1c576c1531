import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { RequestSourceSchema } from './request-source.js';

export const Usage = lazySchema(() =>
  z
    .object({
      day: z.string().describe('The UTC day the totals are for'),
      generated_at: z.string(),
      source: RequestSourceSchema().nullable().describe('The source the figures are of (?source=), or null for every request'),
      totals: z.object({ requests: z.number().int() }),
      by_source: z
        .array(z.object({ source: RequestSourceSchema(), requests: z.number().int() }))
        .describe('The dashboard’s own requests apart from the others'),
      by_key: z.array(z.object({ key_id: z.string(), requests: z.number().int() })),
      by_endpoint: z.array(z.object({ endpoint: z.string(), requests: z.number().int() })),
      by_status: z.array(z.object({ status: z.number().int(), requests: z.number().int() })),
      quota: z
        .object({ limit: z.number().int(), used: z.number().int(), remaining: z.number().int(), resets_at: z.string() })
        .nullable()
        .describe('The calling key’s quota; null when quotas are off'),
      rate_limit: z.object({ limit: z.number().int(), window_seconds: z.number().int() }).nullable(),
      requests_per_second: z.object({
        window_seconds: z.number().int(),
        average: z.number(),
        series: z.array(z.number().int()).describe('One count per second, oldest first'),
        by_class: z
          .array(z.object({ status_class: z.string().max(3).describe('2xx, 4xx (without 429), 429 or 5xx'), series: z.array(z.number().int()) }))
          .describe('The same series by status class, for the live chart'),
      }),
    })
    .meta({ id: 'Usage' }),
);

export const UsageQuery = lazySchema(() =>
  z.strictObject({
    day: z.iso.date().max(10).optional().describe('YYYY-MM-DD (UTC); today by default'),
    source: RequestSourceSchema()
      .optional()
      .describe('Only the dashboard’s requests ("dashboard") or only the others ("api"): every count and series of the report, not the quota'),
  }),
);

/** The live report's query: the source only (it is always today's). */
export const UsageStreamQuery = lazySchema(() => UsageQuery.unwrap().pick({ source: true }));

export type Usage = z.infer<typeof Usage>;
