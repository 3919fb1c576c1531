import type { Worker } from 'node:worker_threads';
import { existingWorkerScript } from '../worker-script.js';
import type { Db } from './db.js';
import { PENDING, RELEASED, type CheckpointMessage } from './checkpoint-messages.js';

/**
 * Checkpoints on a thread of their own while bulk writes come in (docs/benchmarks.md). A checkpoint copies
 * the write-ahead log's pages into the database file. Made by the commit that takes the log past
 * wal_autocheckpoint, it holds the server's thread while it copies and syncs: over an import of
 * 200k clients 1.0–2.5 s of ~14.7–17.7 (docs/benchmarks-history.md). Here a worker with a
 * connection of its own runs a PASSIVE checkpoint (one that waits for no reader or writer) after
 * each bulk commit, while the server's thread reads the next batch; when it has copied the whole
 * log before that batch's write begins, SQLite starts the log again from its beginning, so it stays
 * a batch or two long. The server's own wal_autocheckpoint stays on as the backstop.
 *
 * The worker's script is compiled beside this module (dist/store/); where there is none (the
 * sources, the single binary: worker-script.ts), checkpoints stay on the server's thread as before.
 */
function checkpointWorkerFile(): string | undefined {
  return existingWorkerScript(() => new URL('./checkpoint-worker.js', import.meta.url));
}

/** undefined: not started yet; null: none (no script, or the thread failed). */
let thread: Worker | null | undefined;
let workerFile: () => string | undefined = checkpointWorkerFile;

/** For tests run from the sources: the compiled script to start the thread from. */
export function useCheckpointWorker(file: string): void {
  workerFile = () => file;
}

interface Shared {
  /** [PENDING]: 1 while a checkpoint is asked for and not begun; [RELEASED]: the last release the worker did. */
  signal: Int32Array;
  releases: number;
}
const databases = new WeakMap<Db, Shared>();

function startThread(): Worker | null {
  const file = workerFile();
  if (!file) return null;
  // node:worker_threads loads here, at the first bulk write, not with the server.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(file, { name: 'crm checkpoints' });
  worker.unref(); // never keeps a process up
  // A thread that fails leaves the checkpoints to the server's connection, as they were; said once.
  const fail = (error?: Error) => {
    if (thread !== worker) return;
    thread = null;
    if (error) process.emitWarning(`The checkpoint thread stopped (${error.message}); the server copies its write-ahead log itself.`);
  };
  worker.on('error', fail).on('exit', () => fail());
  return worker;
}

/**
 * Asks the thread to checkpoint db once the current synchronous work (the batch's commit) is done;
 * false when there is no thread (the caller's connection checkpoints, as it always can).
 */
export function checkpointSoon(db: Db): boolean {
  if (db.memory) return false;
  if (thread === undefined) thread = startThread();
  if (!thread) return false;
  let shared = databases.get(db);
  if (!shared) databases.set(db, (shared = { signal: new Int32Array(new SharedArrayBuffer(8)), releases: 0 }));
  // One asked for and not begun covers this commit too: at most one waits in the thread's queue.
  if (Atomics.compareExchange(shared.signal, PENDING, 0, 1) === 1) return true;
  const message: CheckpointMessage = { op: 'checkpoint', path: db.name, signal: shared.signal };
  setImmediate(() => thread?.postMessage(message));
  return true;
}

/**
 * Has the thread close its connection to db. With wait, returns once it has (before the database
 * is closed or its file removed: a connection left open there would keep or delete the log of the
 * next database made at that path); without, at once (bulk writes are over for now).
 */
export function releaseCheckpoints(db: Db, wait: boolean): void {
  const shared = databases.get(db);
  if (!shared || !thread) return;
  const seq = ++shared.releases;
  const message: CheckpointMessage = { op: 'release', path: db.name, signal: shared.signal, seq };
  thread.postMessage(message);
  if (!wait) return;
  // Blocking is what a close needs here, and it is short: at most the checkpoint under way.
  const deadline = Date.now() + 10_000;
  for (let seen = Atomics.load(shared.signal, RELEASED); seen !== seq && Date.now() < deadline && thread; seen = Atomics.load(shared.signal, RELEASED)) {
    Atomics.wait(shared.signal, RELEASED, seen, 100);
  }
}
