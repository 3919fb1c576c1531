import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { listEnvelope, listQueryFields, LogOrder, Time } from './common.js';
import { RequestSourceSchema } from './request-source.js';

/** One /v1 request as the request log keeps it (docs/dashboard.md#the-request-log). */
export const RequestLog = lazySchema(() =>
  z
    .object({
      id: z.string().max(40).describe('The request id (X-Request-Id)'),
      method: z.string().max(10),
      path: z.string().max(2000).describe('Without the query string'),
      query: z.string().max(10_000).nullable().describe('The query string, without the "?"; secret parameters\' values are "[redacted]"'),
      status: z.number().int().min(100).max(599),
      duration_ms: z.number().int().min(0),
      key_id: z
        .string()
        .max(100)
        .nullable()
        .describe(
          'The API key or OAuth token that made it; null when its credential was refused (revoked, expired, lacking a scope). Requests without a credential of this account are not logged',
        ),
      key_prefix: z.string().max(20).nullable().describe('The API key’s first characters, crm_test_XXXX'),
      idempotency_key: z.string().max(300).nullable(),
      idempotent_replayed: z.boolean().describe('true when the stored response of an earlier request was replayed'),
      source: RequestSourceSchema(),
      created_at: z.string().max(64),
    })
    .meta({ id: 'RequestLog' }),
);

const Body = z.unknown().describe('For writes: the JSON body (or its first 64 KB as text), secrets redacted; null for reads');

export const RequestLogDetail = lazySchema(() => RequestLog.unwrap().extend({ request_body: Body, response_body: Body }).meta({ id: 'RequestLogDetail' }));

export const RequestLogList = lazySchema(() => listEnvelope(RequestLog.unwrap()).meta({ id: 'RequestLogList' }));

export const RequestLogListQuery = lazySchema(() =>
  z.strictObject({
    limit: listQueryFields().limit,
    cursor: listQueryFields().cursor,
    // Decimal digits only, as PageSize reads them (Number() would also take '0x1f4' or ' 500').
    status: z
      .preprocess(
        (v) => (typeof v === 'string' && /^[0-9]{3}$/.test(v) ? Number(v) : v),
        z.number({ error: 'Expected an HTTP status, 100..599.' }).int().min(100).max(599),
      )
      .optional()
      .describe('Only this HTTP status'),
    method: z.enum(['GET', 'POST', 'PATCH', 'DELETE']).optional(),
    path_prefix: z.string().min(1).max(2000).optional().describe('Only paths that start with this, e.g. /v1/leads'),
    key_id: z.string().max(100).optional().describe('Only requests made with this API key or token'),
    source: RequestSourceSchema().optional().describe('Only requests the dashboard made ("dashboard") or only the others ("api")'),
    created_after: Time().optional(),
    order: LogOrder(),
  }),
);

export type RequestLog = z.infer<typeof RequestLog>;
export type RequestLogListQuery = z.infer<typeof RequestLogListQuery>;
