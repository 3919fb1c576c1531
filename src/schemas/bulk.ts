import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { compiledSchema, parsedBy } from './compiled.js';
import { BULK_MAX_RECORDS } from '../domain/bulk-limits.js';
import { ClientCreate } from './client.js';
import { DealCreate } from './deal.js';
import { LeadCreate } from './lead.js';
/**
 * Bulk upsert (docs/api.md#bulk-api), after HubSpot's batch upsert and Salesforce Bulk: up to 1000 records a
 * call, each validated with its resource's create schema, each failing on its own.
 */
const BULK_MODES = ['upsert', 'create'] as const;
const BULK_STATUSES = ['created', 'updated', 'unchanged', 'failed'] as const;
export type BulkMode = (typeof BULK_MODES)[number];

const RecordId = z.string().min(1).max(100).optional().describe('Upsert only: the id of the record to update (an export carries it). Matched before match_on.');

/**
 * A bulk record is the resource's create body plus an optional `id`, so that an export (which has
 * ids, and records without external_id) imports back onto the same records.
 */
export const LeadBulkRecord = lazySchema(() => LeadCreate.unwrap().safeExtend({ id: RecordId }).meta({ id: 'LeadBulkRecord' }));
export const ClientBulkRecord = lazySchema(() => ClientCreate.unwrap().safeExtend({ id: RecordId }).meta({ id: 'ClientBulkRecord' }));
export const DealBulkRecord = lazySchema(() => DealCreate.unwrap().safeExtend({ id: RecordId }).meta({ id: 'DealBulkRecord' }));
export type LeadBulkRecord = z.output<typeof LeadBulkRecord>;
export type ClientBulkRecord = z.output<typeof ClientBulkRecord>;
export type DealBulkRecord = z.output<typeof DealBulkRecord>;

/** One record after validation: its parsed value, or the zod issues that make it fail alone. */
export type RecordOutcome<T> = { ok: true; value: T } | { ok: false; issues: z.core.$ZodIssue[] };

/**
 * Parses each record on its own, so a bad one becomes { ok: false } instead of a 422 for the whole
 * request. The OpenAPI generator cannot represent the fallback (the callback throws when called
 * without a failure) and documents the record schema itself, which is what a caller should send.
 */
function eachOnItsOwn<T extends z.ZodType>(record: T) {
  return record
    .transform((value): RecordOutcome<z.output<T>> => ({ ok: true, value }))
    .catch((ctx): RecordOutcome<z.output<T>> => ({ ok: false, issues: ctx.error.issues }));
}

function bulkRequest<T extends z.ZodType, M extends readonly [string, ...string[]]>(record: T, matchOn: M) {
  return z.strictObject({
    mode: z.enum(BULK_MODES).describe('upsert: update the record that matches, else create; create: always create'),
    match_on: z.enum(matchOn).default(matchOn[0]).describe('How upsert finds the existing record (email: case-insensitive)'),
    records: z
      .array(eachOnItsOwn(record))
      .min(1)
      .max(BULK_MAX_RECORDS)
      // The document lets any item through: each record is checked on its own (openapi-inputs.ts).
      .meta({ description: `1..${BULK_MAX_RECORDS} records, each checked on its own`, 'x-checked-per-record': true }),
    dry_run: z
      .boolean()
      .default(false)
      .describe('Plan only: the same checks and response, nothing written, no events; `updated` results carry `changes`, `created` ones no id'),
  });
}

/**
 * Each bulk body schema, and its twin that parses the requests (compiled.ts): the same schema
 * around the record schema compiled by zod, ~4 µs less a record than the interpreted one.
 */
function bulkRequestSchema<T extends z.ZodType, M extends readonly [string, ...string[]]>(record: z.ZodLazy<T>, matchOn: M) {
  return parsedBy(
    lazySchema(() => bulkRequest(record.unwrap(), matchOn)),
    () => bulkRequest(compiledSchema(record), matchOn),
  );
}

export const LeadBulkRequest = bulkRequestSchema(LeadBulkRecord, ['external_id', 'email'] as const);
export const ClientBulkRequest = bulkRequestSchema(ClientBulkRecord, ['external_id', 'email'] as const);
/** Deals have no email, so they match on external_id only. */
export const DealBulkRequest = bulkRequestSchema(DealBulkRecord, ['external_id'] as const);

export interface BulkRequest<R> {
  mode: BulkMode;
  match_on: 'external_id' | 'email';
  records: RecordOutcome<R>[];
  dry_run?: boolean;
}

export const BulkError = lazySchema(() =>
  z.object({
    code: z.string().describe('An error code of the API (docs/reference/errors.md), e.g. validation_failed or conflict'),
    message: z.string(),
    path: z.string().optional().describe('The field at fault, dotted (contacts.0.email)'),
  }),
);

export const BulkResult = lazySchema(() =>
  z.object({
    index: z.number().int().describe('Position of the record in the request'),
    status: z.enum(BULK_STATUSES),
    id: z.string().optional(),
    error: BulkError.unwrap().optional(),
    changes: z
      .record(z.string(), z.object({ from: z.unknown(), to: z.unknown() }))
      .optional()
      .describe('Dry run, status updated: each changed field (dotted, e.g. address.city) with its old and new value'),
  }),
);

export const BulkSummary = lazySchema(() =>
  z.object({
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    failed: z.number().int(),
  }),
);

export const BulkResponse = lazySchema(() => z.object({ results: z.array(BulkResult.unwrap()), summary: BulkSummary.unwrap() }).meta({ id: 'BulkResponse' }));

export type BulkError = z.infer<typeof BulkError>;
export type BulkResult = z.infer<typeof BulkResult>;
export type BulkSummary = z.infer<typeof BulkSummary>;
export type BulkResponse = z.infer<typeof BulkResponse>;

/**
 * zod issues as one bulk error: the first field at fault as path, every problem in the message.
 * The sync client uses it too, so a row refused locally reads the same as one refused by the server.
 */
export function issuesError(issues: z.core.$ZodIssue[]): BulkError {
  const problems = issues.flatMap((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.code !== 'unrecognized_keys') return [{ path, message: `${path || '(record)'}: ${issue.message}` }];
    return issue.keys.map((key) => {
      const field = path ? `${path}.${key}` : key;
      return { path: field, message: `${field}: unknown field` };
    });
  });
  const path = problems[0]?.path;
  return { code: 'validation_failed', message: problems.map((p) => p.message).join('; '), ...(path ? { path } : {}) };
}
