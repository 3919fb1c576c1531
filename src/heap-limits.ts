import { PerformanceObserver } from 'node:perf_hooks';

/** The young generation's size at which it stops growing (V8 grows it by doubling, up to 64 MB a semi-space). */
const YOUNG_GENERATION_CAP_BYTES = 8 * 1024 * 1024;

/**
 * Keeps a long run (the sandbox's server, `crm sync import|export|copy`) near the memory it needs,
 * with no flag from the user (issue #27). Under an import's allocation rate Node 24's V8 grows the
 * young generation to 2 x 64 MB and lets the old one reach up to four times what survives a full
 * collection: the sandbox peaked at ~390 MB importing 1M leads, the client at ~300 MB, for a live
 * heap of ~25 MB. `--max-semi-space-size` would cap the first, but V8 reads it only when the process
 * starts; the two flags set here are read at each collection, so they work from inside:
 * - once the young generation has grown to 8 MB, `--semi-space-growth-factor=1` stops its growth
 *   (growing first keeps the start-up and small requests as fast as before);
 * - `--heap-growing-percent=50` lets the old generation grow to 1.5 times its live size before the
 *   next full collection, not up to four times (an import's bodies of ~150 KB are large objects,
 *   which only a full collection frees).
 * Measured importing 1M leads (2 runs each, interleaved): the sandbox 390 -> 195-198 MB (with 100 %:
 * 218-221 MB), the client 300 -> 129-131 MB, the import ~4 % slower (27.1-29.3 against 26.3-27.1 s).
 * Whoever starts Node with their own young-generation size or growing percent keeps theirs.
 * Only for the CLI's own process: a library (startSandbox() in a test runner) must not retune its host.
 */
export function limitHeapGrowth(): void {
  // node:v8 loads here, not with the module: its loading is 2 ms of a start (the sandbox's is ~130 ms).
  const { getHeapSpaceStatistics, setFlagsFromString } = process.getBuiltinModule('node:v8');
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  if (!/heap-growing-percent/.test(given)) setFlagsFromString('--heap-growing-percent=50');
  if (/semi-space/.test(given)) return;
  const observer = new PerformanceObserver(() => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
    if (young < YOUNG_GENERATION_CAP_BYTES) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
