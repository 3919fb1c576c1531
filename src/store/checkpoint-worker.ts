import Database from 'better-sqlite3';
import { parentPort } from 'node:worker_threads';
import { PENDING, RELEASED, type CheckpointMessage } from './checkpoint-messages.js';

/**
 * The checkpoint thread (checkpoint-thread.ts): a connection of its own to each database file it is
 * asked about, kept until the server releases it, and a PASSIVE checkpoint at each request.
 */
const connections = new Map<string, Database.Database>();

parentPort!.on('message', (message: CheckpointMessage) => {
  if (message.op === 'release') {
    connections.get(message.path)?.close();
    connections.delete(message.path);
    Atomics.store(message.signal, RELEASED, message.seq);
    Atomics.notify(message.signal, RELEASED);
    return;
  }
  Atomics.store(message.signal, PENDING, 0); // a commit after this point asks again
  try {
    let db = connections.get(message.path);
    // fileMustExist: a database removed meanwhile is not made again; timeout 0: never wait for a lock.
    if (!db) connections.set(message.path, (db = new Database(message.path, { fileMustExist: true, timeout: 0 })));
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or gone: the server's own wal_autocheckpoint still copies the log when it grows.
  }
});
