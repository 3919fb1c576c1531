// Entry point of the benchmarks: `node bench/run.js [name...]` (default: all), via `npm run bench`
// after a build. BENCH_DURATION sets the seconds of each measured load run (default 10);
// BENCH_ROUNDS (default 1) repeats load runs, alternating servers, and reports medians.
//
// A benchmark is a module here exporting `async function run(ctx)` that returns
//   { rows: [{ name, ...figures }], checks?: [{ name, actual, pass }], figures?: {...} }
// ctx is { tmp, duration, rounds }: a scratch folder removed on exit, the load duration in
// seconds, and how many rounds of load runs to take medians over.
// Benchmarks start their own servers (through servers.js / processes.js, which stop them on
// exit) and run one after another, never at the same time: each wants both cores.
// To add one (idempotency, webhooks, CSV import/export...), write the module and list it below.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { CONNECTIONS, WARMUP_SECONDS } from './load.js';
import { installCleanup, onExit } from './processes.js';
import { report } from './report.js';

const BENCHMARKS = {
  readiness: () => import('./readiness.js'),
  startup: () => import('./startup.js'), // builds build/crm first (scripts/build-binary.mjs)
  http: () => import('./http.js'),
  sync: () => import('./sync.js'),
  csv: () => import('./csv-parser.js'), // the import's CSV parser alone: 1M leads, and a quote never closed
  copy: () => import('./copy.js'), // crm sync copy of 100k records between two sandboxes
  'search-after-import': () => import('./search-after-import.js'), // the first q= after an import, /healthz beside it
  'custom-fields': () => import('./custom-fields.js'), // lists by a custom field's filter, range and sort at 1M leads
  webhooks: () => import('./webhooks.js'),
  accounts: () => import('./accounts.js'),
  pacing: () => import('./pacing.js'),
  peers: () => import('./peers.js'), // json-server 1.x and 0.17, Prism 5 (devDependencies) beside the sandbox
  dashboard: () => import('./dashboard.js'), // needs Chromium (CRM_CHROMIUM or /usr/bin/chromium)
};

function positive(name, fallback, integer = false) {
  const text = process.env[name];
  const value = Number(text ?? fallback);
  if (!(value > 0) || (integer && !Number.isInteger(value))) throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'}, not '${text}'`);
  return value;
}

async function main(argv) {
  const names = argv.length ? argv : Object.keys(BENCHMARKS);
  const unknown = names.filter((n) => !(n in BENCHMARKS));
  if (unknown.length) throw new Error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);

  installCleanup();
  const loadAtStart = os.loadavg()[0];
  const tmp = mkdtempSync(join(os.tmpdir(), 'crm-bench-'));
  onExit(() => rmSync(tmp, { recursive: true, force: true }));
  const ctx = { tmp, duration: positive('BENCH_DURATION', 10), rounds: positive('BENCH_ROUNDS', 1, true) };

  // A benchmark that fails (a missing Chromium, a peer that does not start) is reported as failed
  // and the run goes on: a full run is ~20 minutes, and one failure late in it must not lose the rest.
  const results = [];
  const failures = [];
  for (const name of names) {
    process.stderr.write(`bench: running ${name}...\n`);
    try {
      const { run } = await BENCHMARKS[name]();
      results.push({ name, ...(await run(ctx)) });
    } catch (error) {
      process.stderr.write(`bench: ${name} failed: ${error.stack ?? error}\n`);
      failures.push(name);
    }
  }

  const cpus = os.cpus();
  report(results, {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus.length,
    cpu_model: cpus[0]?.model.trim() ?? 'unknown',
    // Other work on the machine skews every figure; the load average tells a reader how much.
    loadavg_1m_at_start: Number(loadAtStart.toFixed(2)),
    duration_s: ctx.duration,
    rounds: ctx.rounds,
    warmup_s: WARMUP_SECONDS,
    connections: CONNECTIONS,
  });
  if (failures.length) throw new Error(`${failures.join(', ')} failed (above); the figures of the others are reported`);
}

main(process.argv.slice(2)).then(
  // Exit explicitly: autocannon may leave timers behind, and the exit hook stops any child.
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench failed: ${error.stack ?? error}\n`);
    process.exit(1);
  },
);
