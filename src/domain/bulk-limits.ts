/** At most this many records in one bulk call (docs/api.md#bulk-api); plain data, so the CLI loads it without zod. */
export const BULK_MAX_RECORDS = 1000;
