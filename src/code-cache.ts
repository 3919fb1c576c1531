import { withDefaultHeapFlags } from './heap-limits.js';

/**
 * bin/crm.js keeps V8's compiled code of the CLI's bundle on disk, one cache per command, and
 * reads it whole on every start. A command whose start is what counts calls this when its start is
 * over (`crm sandbox start`: after its first response), and the cache is made then, if missing,
 * holding what a start runs; it is not grown later by everything a long run compiles (issue #27).
 * Without bin/crm.js (tests, the package's API, the single binary) nobody listens: a no-op.
 */
export function codeCacheCheckpoint(): void {
  // An event of our own on process (an EventEmitter): Node's typings list only Node's events.
  withDefaultHeapFlags(() => (process as NodeJS.EventEmitter).emit('crm:code-cache-checkpoint'));
}
