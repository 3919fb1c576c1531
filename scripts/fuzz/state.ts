import Database from 'better-sqlite3';
import { CLOCK_EVENT_TYPES } from '../../src/domain/event-types.js';

/**
 * What a refused request must leave alone: the row count of every table that holds user data,
 * read from the SQLite file directly (WAL lets a reader sit beside the sandbox). Tables written
 * for every request or in the background (usage, idempotency records, rate counters, webhook
 * delivery attempts) are left out: they change by design. So are the search indexes (`*_search*`):
 * derived from the records and brought up to date by the next search after a write, which may be
 * a search the server then refuses (a bad cursor is found after the index is refreshed).
 */
const BOOKKEEPING = /idempot|usage|rate|request|quota|deliver|attempt|log|session|meta|migration|search|sqlite_/i;

/**
 * Events the clock emits on its own (every minute the sandbox makes what fell due happen: an invoice
 * the fuzzer created with a past due_date turns overdue), whatever request is running meanwhile.
 */
const CLOCK_EVENTS = ` WHERE type NOT IN (${CLOCK_EVENT_TYPES.map((t) => `'${t}'`).join(', ')})`;

type Counter = { table: string; count: Database.Statement };

/**
 * One read-only connection per file, kept: opening one and reading its schema took ~20 ms, the
 * counts themselves under 1 ms, and the fuzzers count before and after every refused request.
 * Each count is its own read, so it sees every commit made before it; the tables are the
 * migrations' and do not change while the sandbox runs.
 */
const counters = new Map<string, Counter[]>();

function countersOf(dbPath: string): Counter[] {
  let list = counters.get(dbPath);
  if (!list) {
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    list = tables
      .filter((t) => !BOOKKEEPING.test(t))
      .map((table) => ({ table, count: db.prepare(`SELECT count(*) FROM "${table}"${table === 'events' ? CLOCK_EVENTS : ''}`).pluck() }));
    counters.set(dbPath, list);
  }
  return list;
}

export function tableCounts(dbPath: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { table, count } of countersOf(dbPath)) counts[table] = count.get() as number;
  return counts;
}
