import type { Db } from './db.js';
import { stmt } from './rows.js';

/**
 * What an account's database says about a credential, for finding the account a request belongs
 * to (src/accounts/credentials.ts, credential-index.ts, payment-tokens.ts) and for the start-up's
 * --api-key.
 */

/** Every credential an account's requests can carry, by the hash the database keeps of it. */
const HASHES = `SELECT hash FROM api_keys UNION ALL SELECT hash FROM oauth_tokens
  UNION ALL SELECT hash FROM dashboard_sessions UNION ALL SELECT hash FROM dashboard_logins`;

export const credentialHashes = (db: Db) => stmt(db, HASHES).pluck().all() as string[];

export const hasApiKeyHash = (db: Db, hash: string) => stmt(db, 'SELECT 1 FROM api_keys WHERE hash = ?').get(hash) !== undefined;

export const hasOAuthClient = (db: Db, clientId: string) => stmt(db, 'SELECT 1 FROM oauth_apps WHERE client_id = ?').get(clientId) !== undefined;

export const holdsPaymentToken = (db: Db, token: string) => stmt(db, 'SELECT 1 FROM invoices WHERE payment_token = ?').get(token) !== undefined;

export const paymentTokens = (db: Db) => stmt(db, 'SELECT payment_token FROM invoices WHERE payment_token IS NOT NULL').pluck().all() as string[];
