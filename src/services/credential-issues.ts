import type { Db } from '../store/db.js';

/**
 * How many credentials (API keys, OAuth tokens, dashboard sign-ins and sessions) each database has
 * issued while this process runs. The accounts' credential index (src/accounts/credential-index.ts)
 * re-reads an account's hashes only when its count moved, so it stays complete without a query
 * per account on every unknown bearer.
 */
const issued = new WeakMap<Db, number>();

export function credentialIssued(db: Db): void {
  issued.set(db, (issued.get(db) ?? 0) + 1);
}

export function credentialsIssuedIn(db: Db): number {
  return issued.get(db) ?? 0;
}
