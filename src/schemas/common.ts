import { z } from 'zod';
import { CURRENCIES } from '../domain/money.js';
import { normaliseTime } from '../domain/time.js';
import { buildOnce } from './lazy.js';

/**
 * Building blocks shared by the resource schemas. Each resource file composes these into one
 * schema for create, update and the returned record; validation, TypeScript types, the OpenAPI
 * document, MCP tool inputs and CSV columns are all derived from those.
 *
 * Each block is a function that builds it the first time it is called and returns that schema
 * ever after (`Email()`): the resource schemas are built on first use (lazy.ts), and so are their
 * parts. Built with the module, these blocks were ~11 ms of every sandbox start, most of it the
 * currency enum and the custom fields' record (docs/benchmarks.md). IdParams and Problem stay plain values:
 * every route's registration uses them.
 */

export const DateOnly = buildOnce(() => z.iso.date().max(10).describe('YYYY-MM-DD'));
/**
 * An address as people have them: international domains (anna@münchen.example) are valid, as in
 * HubSpot and Pipedrive exports; a domain needs a dot. The same rule as a custom email field's.
 */
export const Email = buildOnce(() => z.email({ pattern: /^[^\s@"]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/u }).max(254));
const ExternalId = buildOnce(() => z.string().min(1).max(255).describe('Your id for this record in another system; unique per resource'));
export const ShortText = buildOnce(() => z.string().max(200));
export const Phone = buildOnce(() => z.string().max(50));
export const LongText = buildOnce(() => z.string().max(10_000));

/**
 * The name or description of a piece of configuration (an API key, an OAuth app, an account, a
 * webhook endpoint): `crm keys list` and the like show it in a terminal, which acts on control
 * characters instead of showing them (ESC starts a sequence, OSC 52 writes the clipboard, U+009B
 * is CSI on its own). So C0 controls (tab and newline too: a label is one line), DEL and the C1
 * controls are refused. Records' text (names, notes) keeps them: it comes from other systems' CSV
 * files, and the CLI shows nothing of it unescaped (docs/security.md, "The terminal").
 */
export const Label = (min: number, max: number) =>
  (min > 0 ? z.string().min(min) : z.string())
    .max(max)
    .regex(
      /^[^\u0000-\u001f\u007f-\u009f]*$/,
      'Control characters (U+0000–U+001F, U+007F–U+009F: tab, newline, escape…) are not allowed: a terminal would act on them.',
    );

const Tags = buildOnce(() => z.array(z.string().min(1).max(50)).max(20).describe('At most 20 tags of at most 50 characters'));

const CustomFields = buildOnce(() =>
  z
    .record(z.string().min(1).max(100), z.union([z.string().max(65_535), z.number(), z.boolean(), z.null(), z.array(z.string().max(100)).max(500)]))
    .refine((o) => Object.keys(o).length <= 50, { message: 'At most 50 custom fields.' })
    .describe(
      'The values of the fields defined for this object (GET /v1/fields), by key: each valid for its type; null clears one. On update only the keys sent change.',
    ),
);

/** A record's custom field values as the API answers them (docs/reference/custom-fields.md). */
export const CustomFieldValues = buildOnce(() => z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())])));

export const Currency = buildOnce(() => z.enum(CURRENCIES).describe('ISO 4217 code'));
export const MoneyAmount = buildOnce(() => z.number().nonnegative().max(1e13).describe("Major units (19.99); at most the currency's minor digits"));

/** Fields that leads, clients and deals share for integration with other systems. */
export const syncFields = buildOnce(() => ({
  external_id: ExternalId().nullable().optional(),
  tags: Tags().optional(),
  custom_fields: CustomFields().optional(),
}));

export const recordFields = buildOnce(() => ({
  created_at: z.string(),
  updated_at: z.string(),
}));

/**
 * An RFC 3339 time in a query or body: what JSON Schema's `format: date-time` means (seconds
 * included), so the document and the server accept the same strings.
 */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
export const Time = buildOnce(() =>
  z
    .string()
    .max(64)
    .refine((v) => RFC3339.test(v) && normaliseTime(v) !== undefined, { message: 'Expected an RFC 3339 time, like 2026-12-01T09:00:00Z.' })
    .meta({ format: 'date-time' }),
);

/**
 * A page size: a number (MCP tools send JSON) or a query string of decimal digits. Not
 * z.coerce.number(): Number() also reads '0x10', '1e2' and ' 5', which a client never means.
 */
const PageSize = buildOnce(() =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value),
    z.number({ error: 'Expected a whole number from 1 to 1000.' }).int().min(1).max(1000),
  ),
);

/** Query parameters every list accepts (docs/reference/basics.md#lists-and-pagination). */
export const listQueryFields = buildOnce(() => ({
  limit: PageSize().default(50).describe('Page size, 1..1000'),
  cursor: z.string().max(2000).optional().describe('The next_cursor of the previous page'),
  created_after: Time().optional(),
  updated_after: Time().optional(),
  ids: z
    .string()
    .max(5000)
    .regex(/^[A-Za-z0-9_-]{1,100}(,[A-Za-z0-9_-]{1,100}){0,99}$/, 'Expected up to 100 ids separated by commas.')
    .optional()
    .describe('Only the records with these ids: up to 100, comma-separated (unknown ids are left out). Names for many ids in one request.'),
}));

/** `order` of a log (events, request logs): by id, that is by time. */
export const LogOrder = buildOnce(() => z.enum(['asc', 'desc']).default('asc').describe('asc (oldest first, the default) or desc (newest first)'));

/** The orders every list of records has: by creation (id) and by last change (updated_at, id). */
const RECORD_SORTS = ['created', 'updated_at'] as const;

/**
 * `sort` and `order` of a list of records: `created` and `updated_at`, and the resource's own keys
 * (store/list-sorts.ts says how each orders). Oldest first unless `order=desc` (docs/reference/basics.md#lists-and-pagination: records
 * created while a client pages appear at the end); a cursor continues the sort and order it came from.
 */
export function listSortFields<const S extends string>(keys: readonly S[], described: string) {
  return {
    sort: z
      .enum([...RECORD_SORTS, ...keys])
      // A cast zod's types need while S is generic; each resource's schema has its exact enum.
      .default('created' as never)
      .describe(`created (by id, the default), updated_at (for incremental sync), ${described}; ties in id order`),
    order: z
      .enum(['asc', 'desc'])
      .default('asc')
      .describe('asc (oldest or smallest first, the default) or desc (newest or largest first); records without the sort value come last either way'),
  };
}

/** `q`: full-text search over the record's fields named in `over` (store/search-index.ts). */
export function searchField(over: string) {
  return {
    q: z.string().min(1).max(200).optional().describe(`Full-text search over ${over}: every word must match the start of a word, diacritics ignored`),
  };
}

/** Query filters of the resources that carry syncFields. */
export const syncFilterFields = buildOnce(() => ({
  external_id: z.string().max(255).optional(),
  email: z.string().max(254).optional(),
  tag: z.string().max(50).optional(),
}));

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    next_cursor: z.string().nullable().describe('null on the last page'),
  });
}

export const IdParams = z.object({ id: z.string().max(100) });

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    request_id: z.string(),
    errors: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details' });
