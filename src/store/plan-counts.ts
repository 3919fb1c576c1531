import type { Db } from './db.js';
import { stmt } from './rows.js';

/** What a plan's limits count in an account's database (src/accounts/plan-guards.ts). */
export const countWebhookEndpoints = (db: Db) => stmt(db, 'SELECT count(*) FROM webhook_endpoints').pluck().get() as number;
