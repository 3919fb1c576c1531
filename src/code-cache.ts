import { withDefaultHeapFlags } from './heap-limits.js';

/**
 * bin/code-cache.cjs (run by bin/crm.js and by the single binary) keeps V8's compiled code of the
 * CLI's bundle on disk, one cache per command, and reads it whole on every start. A command whose start is what counts says so as it begins
 * (codeCacheAwaitsCheckpoint) and calls codeCacheCheckpoint when its start is over (`crm sandbox
 * start`: after its first answer to an API request); the cache is made then, holding what a start
 * and a first API request run, and it is not grown later by everything a long run compiles (issue
 * #27). A run that ends before its checkpoint leaves a provisional cache, which the next checkpoint
 * replaces. Without it (tests, the package's API, the unbundled dist/) nobody listens: no-ops.
 */
export function codeCacheCheckpoint(): void {
  // An event of our own on process (an EventEmitter): Node's typings list only Node's events.
  withDefaultHeapFlags(() => (process as NodeJS.EventEmitter).emit('crm:code-cache-checkpoint'));
}

/** This command will call codeCacheCheckpoint when its start is over (see above). */
export function codeCacheAwaitsCheckpoint(): void {
  (process as NodeJS.EventEmitter).emit('crm:code-cache-awaits-checkpoint');
}
