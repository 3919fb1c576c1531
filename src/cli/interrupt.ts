import { EXIT } from './exit-codes.js';

/**
 * Ctrl+C for commands that must stop cleanly (docs/sandbox.md): the first SIGINT or SIGTERM aborts the
 * signal, so the command finishes what is in flight, writes down where it stopped and exits with its
 * documented code; a second one gives up at once (exit 130, as a shell reports Ctrl+C).
 */
export function onInterrupt(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    controller.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
