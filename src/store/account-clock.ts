import type { Db } from './db.js';
import { stmt } from './rows.js';
import { CLOCK_OFFSET_KEY } from './tables.js';

/** An account's test clock: how many milliseconds it is ahead of real time, kept in its own database (0 when never moved). */
export const readClockOffset = (db: Db) => Number(stmt(db, 'SELECT value FROM meta WHERE key = ?').pluck().get(CLOCK_OFFSET_KEY) ?? 0);

export function writeClockOffset(db: Db, offsetMs: number): void {
  stmt(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(CLOCK_OFFSET_KEY, String(offsetMs));
}
