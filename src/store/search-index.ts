import { ftsQuery } from '../domain/search-query.js';
import type { Db } from './db.js';
import type { Condition } from './list.js';
import { stmt } from './rows.js';

/**
 * Full-text search (`q`) on the lists of clients, leads, deals and invoices, one way for all four
 * (migrations 008 and 012): `<name>_search` holds a row per record under the record's rowid, made
 * from the view `<name>_search_source`; triggers only mark a changed record in `<name>_search_stale`.
 *
 * The marked rows are rewritten before each write transaction commits (inTransaction in
 * services/transactions.ts calls refreshSearchIndexes), so a commit leaves no stale row and a search
 * only reads. They were rewritten by the first search after the writes instead, on the server's
 * thread: after a 1M-lead import that search took 2.4–9 s, and no request of any account was
 * answered meanwhile (docs/security.md#search-and-ordering). Rows made at the commit cost a 1M-lead import ~15 % more of the
 * sandbox's CPU and ~12 % more time, and a single write ~40 µs (docs/benchmarks.md). A rebuild on
 * another thread would do the same work on a core an import's client already uses, and would need
 * a second search for the records not yet rebuilt that cuts and folds words exactly as FTS5's
 * tokenizer does, or searches would answer differently while it ran.
 *
 * A set-based rewrite per transaction, not triggers that write the rows: FTS5 writes its pending
 * terms out as a segment at every statement, so a row written per statement costs ~350 µs.
 */
const INDEXES = { clients: 'client', leads: 'lead', deals: 'deal', invoices: 'invoice' } as const;
const NAMES = Object.values(INDEXES);

function indexOf(table: string): string {
  if (!Object.hasOwn(INDEXES, table)) throw new Error(`No search index on ${table}`);
  return INDEXES[table as keyof typeof INDEXES];
}

/** One statement that tells which indexes have stale rows, as a bit each: one cheap query when none has. */
const STALE_BITS = `SELECT ${NAMES.map((name, bit) => `(EXISTS (SELECT 1 FROM ${name}_search_stale) << ${bit})`).join(' | ')}`;

/**
 * Rewrites the search rows that writes marked stale, then forgets the marks: a deleted record's row
 * goes, a changed one's is made again from its source. Set-based: one FTS5 write for everything the
 * transaction wrote. Costs one query when nothing is stale.
 */
export function refreshSearchIndexes(db: Db): void {
  const stale = stmt(db, STALE_BITS).pluck().get() as number;
  if (stale === 0) return;
  const rewrite = () =>
    NAMES.forEach((name, bit) => {
      if (!(stale & (1 << bit))) return;
      stmt(db, `DELETE FROM ${name}_search WHERE rowid IN (SELECT ${name}_rowid FROM ${name}_search_stale)`).run();
      stmt(
        db,
        `INSERT INTO ${name}_search (rowid, body)
         SELECT s.${name}_rowid, s.body FROM ${name}_search_stale d JOIN ${name}_search_source s ON s.${name}_rowid = d.${name}_rowid`,
      ).run();
      stmt(db, `DELETE FROM ${name}_search_stale`).run();
    });
  if (db.inTransaction) rewrite();
  else db.transaction(rewrite)();
}

/**
 * Empties every search index, for a reset or a restore that empties the data too: rows are keyed
 * by rowid, which a VACUUM may renumber, so rows the triggers could not find are gone as well.
 */
export function emptySearchIndexes(db: Db): void {
  for (const name of NAMES) {
    stmt(db, `INSERT INTO ${name}_search (${name}_search) VALUES ('delete-all')`).run();
    stmt(db, `DELETE FROM ${name}_search_stale`).run();
  }
}

/** Above this many matches, a list read in the order of an index finds its page sooner by walking the index. */
const FEW_MATCHES = 500;

/**
 * The condition that keeps the records matching `text` (every word, as a prefix), and whether
 * SQLite then sorts them. SQLite cannot know how many records a word matches, and the best plan
 * depends on it: for a few, read the matches and sort them (any order); for many, when the list's
 * order is an index's, walk the index and test each record (the page fills after a few records;
 * sorting 100k matches took 60–600 ms at 100k leads, the walk 20–40 ms, a few matches 0.03 ms). So
 * the matches are counted first, up to FEW_MATCHES + 1: at most a few milliseconds.
 */
export function searchCondition(db: Db, table: string, text: string, inIndexOrder: boolean): { condition: Condition; sorts: boolean } {
  const name = indexOf(table);
  // Only a write made outside inTransaction could leave a mark (none does): one query, and still a right answer.
  refreshSearchIndexes(db);
  const match = ftsQuery(text);
  const matches = `SELECT rowid FROM ${name}_search WHERE ${name}_search MATCH ?`;
  const many =
    inIndexOrder &&
    (stmt(db, `SELECT count(*) FROM (${matches} LIMIT ${FEW_MATCHES + 1})`)
      .pluck()
      .get(match) as number) > FEW_MATCHES;
  // `+` keeps SQLite from reading the records through the matches' rowids: it walks the index of the order instead.
  return { condition: [`${many ? '+' : ''}${table}.rowid IN (${matches})`, [match]], sorts: !many };
}
