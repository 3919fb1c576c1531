// Benchmark "startup": launch -> first 200 from /healthz of `crm sandbox start --port 0 --json`,
// for the single binary (build/crm, built here from the current dist/ by scripts/build-binary.mjs),
// for `npx crm` as a user in the repository would type it, and for `node bin/crm.js`; beside
// `crm --help` spawn -> exit, and `node -e 0` spawn -> exit, the floor no start can go below. Runs
// alternate between the five, so a burst of unrelated load on the machine hits all of them alike.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { exitMs, firstJsonLine, nodeFloorMs, stop, track } from './processes.js';
import { waitFor200 } from './servers.js';
import { median, round, timingRow as row } from './stats.js';

const REPEAT = 5;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BINARY = join(ROOT, 'build', 'crm');
const CRM = join(ROOT, 'bin', 'crm.js');

/** Spawn to first 200 from /healthz, on a new database file each time (so it migrates and seeds). */
async function readyOnce(command, args, db) {
  const started = performance.now();
  const child = track(command, [...args, 'sandbox', 'start', '--port', '0', '--json', '--db', db], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let pid;
  try {
    const ready = await firstJsonLine(child);
    pid = ready.pid;
    await waitFor200(`${ready.base_url}/healthz`, 5);
    return performance.now() - started;
  } finally {
    // npx runs the sandbox as a child of its own: stop the sandbox itself, then npx.
    if (pid && pid !== child.pid) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await stop(child);
  }
}

export async function run(ctx) {
  const started = performance.now();
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-binary.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const buildSeconds = (performance.now() - started) / 1000;

  const cases = {
    'build/crm (single binary)': (i) => readyOnce(BINARY, [], join(ctx.tmp, `startup-binary-${i}.db`)),
    'npx crm': (i) => readyOnce('npx', ['crm'], join(ctx.tmp, `startup-npx-${i}.db`)),
    'node bin/crm.js': (i) => readyOnce(process.execPath, [CRM], join(ctx.tmp, `startup-node-${i}.db`)),
    // The command a new user types first (docs/benchmarks.md): spawn -> exit, its help printed.
    'node bin/crm.js --help (spawn -> exit)': () => exitMs(process.execPath, [CRM, '--help'], { cwd: ROOT }),
    'node -e 0 (spawn -> exit, the floor)': () => nodeFloorMs(),
  };
  const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let i = 0; i < REPEAT; i++) {
    for (const [name, once] of Object.entries(cases)) times[name].push(await once(i));
  }

  const binary = median(times['build/crm (single binary)']);
  const npx = median(times['npx crm']);
  return {
    rows: Object.entries(times).map(([name, values]) => row(name, values)),
    figures: {
      'binary build (s)': round(buildSeconds, 1),
      'npx crm / binary (median ready)': round(npx / binary, 2),
    },
    checks: [
      { name: 'the binary is ready before npx crm', actual: `${round(binary, 1)} ms vs ${round(npx, 1)} ms`, pass: binary < npx },
      { name: 'the binary is ready within 300 ms', actual: `${round(binary, 1)} ms`, pass: binary <= 300 },
    ],
  };
}
