import { ApiError } from '../errors.js';
import { IdGenerator } from '../domain/ids.js';
import { metaValue, type Db } from '../store/db.js';
import { stmt } from '../store/rows.js';
import { refreshSearchIndexes } from '../store/search-index.js';

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

/** Real time as the credential services see it (Ctx.wallClock). */
export const wallNow = (ctx: Ctx): number => (ctx.wallClock ?? ctx.clock)();

let lastMs = NaN;
let lastIso = '';
/** The clock as RFC 3339. A bulk batch asks thousands of times within one millisecond: reuse the string. */
export function nowIso(ctx: Ctx): string {
  const ms = ctx.clock();
  if (ms !== lastMs) [lastMs, lastIso] = [ms, new Date(ms).toISOString()];
  return lastIso;
}

const transactionRunners = new WeakMap<Db, (fn: () => unknown) => unknown>();
const withoutSavepoints = new WeakSet<Db>();

/**
 * Runs fn in one transaction (nested calls join the outer one, as better-sqlite3 makes savepoints).
 * The outermost call also brings the search rows of what fn wrote up to date before it commits
 * (store/search-index.ts): every write goes through here, so no commit leaves a stale search row
 * behind for a search to rewrite while every other request waits (issue #45). One wrapper per
 * database that takes fn as its argument: db.transaction() builds a new wrapper on every call
 * (about 10 µs), which was the largest cost of a bulk batch after SQLite itself.
 */
export function inTransaction<T>(ctx: Ctx, fn: () => T): T {
  if (withoutSavepoints.has(ctx.db)) return fn();
  let run = transactionRunners.get(ctx.db);
  if (!run) transactionRunners.set(ctx.db, (run = ctx.db.transaction((f: () => unknown) => f())));
  if (ctx.db.inTransaction) return run(fn) as T;
  return run(() => {
    const result = fn();
    refreshSearchIndexes(ctx.db);
    return result;
  }) as T;
}

/**
 * Runs fn in one savepoint inside the current transaction, with the inTransaction calls it makes
 * joining that savepoint instead of making their own: a bulk batch of a thousand creates spent
 * about 12 % of its time releasing per-record savepoints. The price is that a failure anywhere in
 * fn undoes all of fn, so callers use this only for work they can redo record by record.
 */
export function inOneSavepoint<T>(ctx: Ctx, fn: () => T): T {
  if (withoutSavepoints.has(ctx.db)) return fn(); // already inside one
  return inTransaction(ctx, () => {
    withoutSavepoints.add(ctx.db);
    try {
      return fn();
    } finally {
      withoutSavepoints.delete(ctx.db);
    }
  });
}

/** Keeps only the keys the caller actually sent, so that PATCH leaves the others alone. */
export function sentFields<T extends object>(patch: T): Partial<T> {
  // A plain loop: entries/filter/fromEntries cost 5 % of a bulk rerun that compares every record.
  const sent: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) if (value !== undefined) sent[key] = value;
  return sent as Partial<T>;
}

/** The old values of the fields that differ, or undefined when nothing changed. */
export function changedAttributes<T extends object>(before: T, after: T): Partial<T> | undefined {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof T & string)[]) {
    if (key === 'updated_at') continue;
    const [was, is] = [before[key], after[key]];
    if (was === is) continue; // most fields are strings: no need to serialise them (bulk compares thousands)
    if (typeof was === 'object' && typeof is === 'object' && JSON.stringify(was) === JSON.stringify(is)) continue;
    changed[key] = was;
  }
  return Object.keys(changed).length ? (changed as Partial<T>) : undefined;
}

/** external_id is unique per resource: a second record with the same one is a 409 conflict. */
export function assertExternalIdFree(ctx: Ctx, table: string, externalId: string | null | undefined, exceptId = ''): void {
  if (externalId === null || externalId === undefined) return;
  const holder = stmt(ctx.db, `SELECT id FROM ${table} WHERE external_id = ? AND id != ?`).pluck().get(externalId, exceptId);
  if (holder) throw new ApiError('conflict', `external_id '${externalId}' is already used by ${String(holder)}.`);
}
