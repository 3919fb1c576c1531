import { IdGenerator } from '../domain/ids.js';
import { metaValue, type Db } from '../store/db.js';

/**
 * What every service needs: the database, a clock and an id generator (both replaceable, so
 * the seed can make the same ids and times for the same --seed), the secret that signs cursors,
 * and the public base URL that payment links point at.
 */
export interface Ctx {
  db: Db;
  ids: IdGenerator;
  clock: () => number;
  /**
   * Real time, for what a test clock must not move (docs/accounts.md#test-clocks lists what follows the clock):
   * credentials' lifetimes (keys, OAuth codes and tokens, dashboard sign-ins and sessions). An
   * account's Ctx sets it; without it (unit tests moving one clock) `clock` serves for both.
   */
  wallClock?: () => number;
  cursorSecret: string;
  baseUrl: () => string;
}

export function createContext(db: Db, baseUrl: () => string = () => 'http://127.0.0.1:4010'): Ctx {
  return { db, ids: new IdGenerator(), clock: Date.now, cursorSecret: metaValue(db, 'cursor_secret'), baseUrl };
}
