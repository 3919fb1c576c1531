import { inTransaction, type Ctx } from '../services/context.js';
import type { Db } from '../store/db.js';
import { stmt } from '../store/rows.js';
import { emptySearchIndexes } from '../store/search-index.js';
import { loadFixtures } from './fixtures.js';
import { seed } from './seed.js';
import { copySeedImage } from './seed-image.js';

/** Tables that hold an account's data; reset empties them, API keys and settings stay. */
export const DATA_TABLES = ['events', 'mailbox', 'invoices', 'deals', 'contacts', 'clients', 'leads'];

export interface FillOptions {
  /** The seed for generated data, or false for none (1 when not given). */
  seed?: number | false | undefined;
  fixtures?: string | undefined;
}

const hasWebhookEndpoints = (db: Db) => stmt(db, 'SELECT 1 FROM webhook_endpoints LIMIT 1').get() !== undefined;

export function isEmpty(db: Db): boolean {
  return DATA_TABLES.every((t) => !stmt(db, `SELECT 1 FROM ${t} LIMIT 1`).get());
}

/**
 * Seeds and loads fixtures in one transaction: a bad fixture file must not leave the seed data
 * behind, or the next start would find the database not empty and silently skip the fixtures.
 */
export function fill(ctx: Ctx, options: FillOptions): boolean {
  const seedValue = options.seed ?? 1;
  return inTransaction(ctx, () => {
    if (seedValue !== false) {
      // The default seed's rows come from the build's image when they can: the same data, sooner.
      // Not with webhook endpoints (a reset): seeding queues deliveries of its events to them.
      const copied = seedValue === 1 && !hasWebhookEndpoints(ctx.db) && copySeedImage(ctx);
      if (!copied) seed(ctx, seedValue);
    }
    if (options.fixtures) loadFixtures(ctx, options.fixtures);
    return seedValue !== false || Boolean(options.fixtures);
  });
}

/** Empties the account's data and fills it again as at its start. */
export function resetData(ctx: Ctx, options: FillOptions): { seeded: boolean } {
  return inTransaction(ctx, () => {
    for (const table of DATA_TABLES) ctx.db.exec(`DELETE FROM ${table}`);
    emptySearchIndexes(ctx.db);
    ctx.db.exec("DELETE FROM meta WHERE key = 'invoice_seq'");
    return { seeded: fill(ctx, options) };
  });
}
