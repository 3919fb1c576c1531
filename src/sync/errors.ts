/**
 * A problem with how sync was asked to run (a header it cannot map, a journal from another file):
 * the CLI reports it as a usage error (exit 2). Anything else that stops a sync is a failure (exit 1).
 */
export class SyncUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SyncUsageError';
  }
}
