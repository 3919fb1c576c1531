import type { Db } from './db.js';
import { stmt } from './rows.js';

/** A request's stored response, replayed for the same Idempotency-Key. Times are ISO 8601 text. */
export interface StoredResponse {
  fingerprint: string;
  response_status: number;
  response_body: string;
}

/** The response stored under `key`, unless it expired by `now`. */
export const storedResponse = (db: Db, key: string, now: string): StoredResponse | undefined =>
  stmt(db, 'SELECT fingerprint, response_status, response_body FROM idempotency_keys WHERE key = ? AND expires_at > ?').get(key, now) as
    | StoredResponse
    | undefined;

export function storeResponse(db: Db, key: string, response: StoredResponse, createdAt: string, expiresAt: string): void {
  stmt(
    db,
    `INSERT OR REPLACE INTO idempotency_keys (key, fingerprint, response_status, response_body, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(key, response.fingerprint, response.response_status, response.response_body, createdAt, expiresAt);
}

/** Deletes the responses that expired by `now`; returns how many. */
export const deleteResponsesExpiredBy = (db: Db, now: string): number => stmt(db, 'DELETE FROM idempotency_keys WHERE expires_at <= ?').run(now).changes;
