import type { Db } from './db.js';
import { stmt } from './rows.js';

/** Requests counted per UTC day, subject (key or app), source, endpoint and status. */
export interface UsageCount {
  day: string;
  subject: string;
  source: string;
  endpoint: string;
  status: number;
  count: number;
}

/** Adds each count to its stored counter (a new counter starts at it); the caller holds the transaction. */
export function addUsageCounts(db: Db, counts: Iterable<UsageCount>): void {
  const upsert = stmt(
    db,
    `INSERT INTO usage_counters (day, subject, source, endpoint, status, count) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (day, subject, source, endpoint, status) DO UPDATE SET count = count + excluded.count`,
  );
  for (const c of counts) upsert.run(c.day, c.subject, c.source, c.endpoint, c.status, c.count);
}

/** One day's stored counters, of one source or of all, the busiest first. */
export function usageOfDay<R>(db: Db, day: string, source?: string): R[] {
  return (
    source
      ? stmt(db, 'SELECT subject, source, endpoint, status, count AS requests FROM usage_counters WHERE day = ? AND source = ? ORDER BY requests DESC').all(
          day,
          source,
        )
      : stmt(db, 'SELECT subject, source, endpoint, status, count AS requests FROM usage_counters WHERE day = ? ORDER BY requests DESC').all(day)
  ) as R[];
}
