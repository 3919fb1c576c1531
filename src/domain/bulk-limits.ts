/** At most this many records in one bulk call (API.md §8); plain data, so the CLI loads it without zod. */
export const BULK_MAX_RECORDS = 1000;

/**
 * `crm sync import` and `copy` send batches this big unless `--batch-size` says otherwise: the most
 * a bulk call takes. Every batch is a transaction, and each commit writes again the index pages the
 * batch touched; with 1,000 records instead of 500, a 200,000-lead import took 7.5 instead of 8.5 s
 * (medians of 3 interleaved runs, issue #27). A free plan's smaller limit still shrinks it.
 */
export const DEFAULT_SYNC_BATCH = BULK_MAX_RECORDS;
