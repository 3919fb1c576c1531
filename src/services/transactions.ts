import { refreshSearchIndexes } from '../store/search-index.js';
import type { Ctx } from './context.js';
import { forgetFieldDefinitions } from './custom-field-values.js';

const transactionRunners = new WeakMap<Ctx['db'], (fn: () => unknown) => unknown>();
const withoutSavepoints = new WeakSet<Ctx['db']>();

/**
 * Runs fn in one transaction (nested calls join the outer one, as better-sqlite3 makes savepoints).
 * The outermost call also brings the search rows of what fn wrote up to date before it commits
 * (store/search-index.ts): every write goes through here, so no commit leaves a stale search row
 * behind for a search to rewrite while every other request waits (docs/security.md#search-and-ordering). One wrapper per
 * database that takes fn as its argument: db.transaction() builds a new wrapper on every call
 * (about 10 µs), which was the largest cost of a bulk batch after SQLite itself.
 */
export function inTransaction<T>(ctx: Ctx, fn: () => T): T {
  if (withoutSavepoints.has(ctx.db)) return fn();
  let run = transactionRunners.get(ctx.db);
  if (!run) transactionRunners.set(ctx.db, (run = ctx.db.transaction((f: () => unknown) => f())));
  if (ctx.db.inTransaction) return run(fn) as T;
  try {
    return run(() => {
      const result = fn();
      refreshSearchIndexes(ctx.db);
      return result;
    }) as T;
  } catch (error) {
    // Rolled back: field definitions read inside may not exist after all.
    forgetFieldDefinitions(ctx.db);
    throw error;
  }
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
