import { checkpointSoon, releaseCheckpoints } from './checkpoint-thread.js';
import type { Db } from './db.js';

/**
 * How often the write-ahead log is copied into the database file: the commit that takes the log
 * past this many pages does it, and the server waits while it does.
 *
 * Serving people and scripts one request at a time, in small steps: SQLite's default of 1,000
 * pages (4 MB), a pause of a few milliseconds. During bulk writes (`crm sync import`, `POST
 * /v1/{resource}/bulk`), in large ones: every batch rewrites the same index pages and the tables'
 * last pages, and at 1,000 pages each checkpoint copied them into the file again; 10,000 made a 1M-lead
 * import 4 % faster. But a 40 MB checkpoint stalls every other request for 30–40 ms: under a stream of
 * single creates the event loop's delay had p99 36–40 ms at 10,000 pages against 13–16 ms at 1,000
 * (docs/benchmarks.md). So the large steps last only while bulk writes come in.
 */
export const CHECKPOINT_PAGES = 1_000;
export const BULK_CHECKPOINT_PAGES = 10_000;
/**
 * With the checkpoint thread copying the log after every bulk commit, the server's own step is only
 * the backstop for a log the thread did not get to restart (it restarts when a write begins after
 * the thread has copied it all): 400 MB. 1M-lead imports peaked at 79–144 MB of log with it.
 */
export const BACKSTOP_CHECKPOINT_PAGES = 100_000;
/** How long after the last bulk write the small steps come back: longer than the gap between an import's batches. */
export const BULK_QUIET_MS = 2_000;

const backToSmallSteps = new WeakMap<Db, NodeJS.Timeout>();

/**
 * Called by every bulk write, before it writes: large checkpoint steps from now until BULK_QUIET_MS
 * after the last one, and the log copied on the checkpoint thread after the write commits
 * (checkpoint-thread.ts), where there is one: the large steps are then only its backstop.
 */
export function checkpointForBulkWrites(db: Db): void {
  // Set at every batch: the thread may have stopped since the last one (then the large steps again).
  db.pragma(`wal_autocheckpoint = ${checkpointSoon(db) ? BACKSTOP_CHECKPOINT_PAGES : BULK_CHECKPOINT_PAGES}`);
  const timer = backToSmallSteps.get(db);
  if (timer) {
    timer.refresh();
    return;
  }
  const restore = setTimeout(() => {
    backToSmallSteps.delete(db);
    releaseCheckpoints(db, false);
    if (db.open) db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
  }, BULK_QUIET_MS);
  restore.unref(); // never keeps a process up
  backToSmallSteps.set(db, restore);
}
