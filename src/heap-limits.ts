/**
 * Keeps a long run (the sandbox's server, `crm sync import|export|copy`) near the memory it needs,
 * with no flag from the user (docs/benchmarks.md). Under an import's allocation rate Node 24's V8 grows the
 * young generation to 2 x 64 MB and lets the old one reach up to four times what survives a full
 * collection: the sandbox peaked at ~390 MB importing 1M leads, the client at ~300 MB, for a live
 * heap of ~25 MB. `--max-semi-space-size` would cap the first, but V8 reads it only when the process
 * starts (a second Node process for every `crm sandbox start` would cost ~40 ms of its ~130 ms). The
 * two flags set here are read at each collection, so they work from inside:
 * - `--semi-space-growth-factor=1`: the young generation no longer doubles; it still grows a page
 *   at a time (to 30-40 MB over a 1M-lead import, where it reached 128 MB);
 * - `--heap-growing-percent=50`: the old generation grows to 1.5 times its live size before the
 *   next full collection, not up to four times (an import's bodies of ~150 KB are large objects,
 *   which only a full collection frees).
 * Measured importing 1M leads (docs/benchmarks.md): the sandbox ~390 -> ~190-200 MB with SQLite's
 * smaller page cache (store/db.ts), the client ~300 -> ~130 MB, the import's time unchanged within
 * the runs' noise. Whoever starts Node with their own young-generation size or growing percent keeps
 * theirs. Only for the CLI's own process: a library (startSandbox() in a test runner) must not
 * retune its host. The sandbox calls it as its first request comes (cli/commands/sandbox/sandbox.ts): the start
 * itself keeps V8's defaults.
 */
export function limitHeapGrowth(): void {
  // node:v8 loads here, not with the module: its loading is 2 ms of a start (the sandbox's is ~130 ms).
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  changed = LIMITS.filter(({ unlessGiven }) => !unlessGiven.test(given));
  for (const { set } of changed) setFlagsFromString(set);
  // V8 stamps a code cache with a hash of its flags and refuses one made under others: bin/code-cache.cjs
  // may write the next start's cache as this process exits, so the defaults go back first (prepended,
  // to run before bin/code-cache.cjs's listener). Without it every start compiled anew: +50 ms.
  process.prependListener('exit', () => {
    for (const { restore } of changed) setFlagsFromString(restore);
  });
}

/** Runs `write` under V8's defaults (a code cache made in it is one the next start accepts), then sets the limits again. */
export function withDefaultHeapFlags(write: () => void): void {
  if (!changed.length) return write();
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  for (const { restore } of changed) setFlagsFromString(restore);
  try {
    write();
  } finally {
    for (const { set } of changed) setFlagsFromString(set);
  }
}

/** Each flag set unless the command line has one like it, and V8's default it goes back to at exit. */
const LIMITS = [
  { set: '--semi-space-growth-factor=1', unlessGiven: /semi-space/, restore: '--semi-space-growth-factor=2' },
  { set: '--heap-growing-percent=50', unlessGiven: /heap-growing-percent/, restore: '--heap-growing-percent=0' },
];

/** The limits limitHeapGrowth() set in this process. */
let changed: typeof LIMITS = [];
