import Database from 'better-sqlite3';

/**
 * What a refused request must leave alone: the row count of every table that holds user data,
 * read from the SQLite file directly (WAL lets a reader sit beside the sandbox). Tables written
 * for every request or in the background (usage, idempotency records, rate counters, webhook
 * delivery attempts) are left out: they change by design.
 */
const BOOKKEEPING = /idempot|usage|rate|request|quota|deliver|attempt|log|session|meta|migration|sqlite_/i;

export function tableCounts(dbPath: string): Record<string, number> {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    const counts: Record<string, number> = {};
    for (const t of tables.filter((t) => !BOOKKEEPING.test(t))) counts[t] = db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number;
    return counts;
  } finally {
    db.close();
  }
}
