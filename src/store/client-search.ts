import type { Db } from './db.js';
import { stmt } from './rows.js';

/**
 * Rewrites the search rows of the clients that writes marked stale (migration 008), then forgets
 * the marks: a deleted client's row goes, a changed one's is made again from client_search_source.
 * inTransaction runs it at the end of every outermost write transaction, so a commit never leaves
 * a stale search row behind. Set-based: one FTS5 write for a whole bulk batch instead of one per
 * statement. Costs one indexed lookup when nothing is stale.
 */
export function refreshClientSearch(db: Db): void {
  if (!stmt(db, 'SELECT 1 FROM client_search_stale LIMIT 1').get()) return;
  stmt(db, 'DELETE FROM client_search WHERE rowid IN (SELECT client_rowid FROM client_search_stale)').run();
  stmt(
    db,
    `INSERT INTO client_search (rowid, client_id, body)
     SELECT c.rowid, s.client_id, s.body
       FROM client_search_stale d JOIN clients c ON c.rowid = d.client_rowid JOIN client_search_source s ON s.client_id = c.id`,
  ).run();
  stmt(db, 'DELETE FROM client_search_stale').run();
}
