import type { Db } from './db.js';
import { getRow, insertRows, stmt, type Row } from './rows.js';

/** The request log's table: written in batches, kept to its newest rows, read by id and by list. */
export const countRequestLogRows = (db: Db): number => stmt(db, 'SELECT count(*) FROM request_logs').pluck().get() as number;

/** Many entries, a hundred a statement; an id already logged is skipped. */
export const insertRequestLogRows = (db: Db, rows: Row[]): void => insertRows(db, 'request_logs', rows, 'INSERT OR IGNORE');

/** Deletes the `count` oldest entries. */
export function dropOldestRequestLogs(db: Db, count: number): void {
  stmt(db, 'DELETE FROM request_logs WHERE id IN (SELECT id FROM request_logs ORDER BY id LIMIT ?)').run(count);
}

export const findRequestLogRow = (db: Db, id: string): Row | undefined => getRow(db, 'request_logs', id);
