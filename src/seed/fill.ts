import type { Ctx } from '../services/context.js';
import { inTransaction } from '../services/transactions.js';
import { emptyData, hasWebhookEndpoints } from '../store/seed-fill.js';
import { defineSeedFields } from './fields.js';
import { loadFixtures } from './fixtures.js';
import { seed } from './seed.js';
import { copySeedImage } from './seed-image.js';

export interface FillOptions {
  /** The seed for generated data, or false for none (1 when not given). */
  seed?: number | false | undefined;
  fixtures?: string | undefined;
}

/**
 * Seeds and loads fixtures in one transaction: a bad fixture file must not leave the seed data
 * behind, or the next start would find the database not empty and silently skip the fixtures.
 */
export function fill(ctx: Ctx, options: FillOptions): boolean {
  const seedValue = options.seed ?? 1;
  return inTransaction(ctx, () => {
    if (seedValue !== false) {
      // First the fields the seed's records hold values of (a record's values are checked against them).
      defineSeedFields(ctx);
      // The default seed's rows come from the build's image when they can: the same data, sooner.
      // Not with webhook endpoints (a reset): seeding queues deliveries of its events to them.
      const copied = seedValue === 1 && !hasWebhookEndpoints(ctx.db) && copySeedImage(ctx);
      if (!copied) seed(ctx, seedValue);
    }
    if (options.fixtures) loadFixtures(ctx, options.fixtures);
    return seedValue !== false || Boolean(options.fixtures);
  });
}

/**
 * Empties the account's data (store/tables.ts: DATA_TABLES; API keys and settings stay) and fills
 * it again as at its start.
 */
export function resetData(ctx: Ctx, options: FillOptions): { seeded: boolean } {
  return inTransaction(ctx, () => {
    emptyData(ctx.db);
    return { seeded: fill(ctx, options) };
  });
}
