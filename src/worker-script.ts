import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The path of a worker thread's script, if it is there: `locate` names it beside the caller's module
 * (its import.meta.url). None when run from the sources (a .ts has no compiled script beside it) or
 * in the single binary, whose bundle has no import.meta.url (new URL throws) nor files beside it;
 * the caller then does the work on its own thread.
 */
export function existingWorkerScript(locate: () => URL): string | undefined {
  try {
    const file = fileURLToPath(locate());
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}
