// Benchmark "readiness": how long a fresh `crm sandbox start` takes until it serves requests,
// next to the cost of starting Node at all (`node -e 0`), which no change in src/ can remove.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuMs, firstJsonLine, nodeFloorMs, stop } from './processes.js';
import { sandboxArgs, spawnNode, waitFor200 } from './servers.js';
import { median, round, timingRow as row } from './stats.js';

const REPEAT = 5;
const TARGET_MS = 500; // the goal in docs/benchmarks.md

/** Spawn to first 200 from /healthz, on a new file each time (so it migrates and seeds). */
async function sandboxOnce(db) {
  const started = performance.now();
  const child = spawnNode(sandboxArgs(db));
  try {
    const { base_url: baseUrl } = await firstJsonLine(child);
    const line = performance.now() - started;
    await waitFor200(`${baseUrl}/healthz`, 5);
    const ready = performance.now() - started;
    // CPU the sandbox used to get there: unlike wall time, hardly moved by other load.
    return { line, ready, cpu: cpuMs(child.pid) };
  } finally {
    await stop(child);
  }
}

export async function run(ctx) {
  const ready = [];
  const line = [];
  const floor = [];
  const cpu = [];
  for (let i = 0; i < REPEAT; i++) {
    const t = await sandboxOnce(join(ctx.tmp, `ready-${i}.db`));
    ready.push(t.ready);
    line.push(t.line);
    if (t.cpu !== null) cpu.push(t.cpu);
    floor.push(await nodeFloorMs());
  }
  const readyMedian = median(ready);
  return {
    rows: [
      row('sandbox start -> JSON line', line),
      row('sandbox start -> first 200 /healthz', ready),
      ...(cpu.length ? [row('sandbox CPU time until ready', cpu)] : []),
      row('node -e 0 (spawn -> exit)', floor),
    ],
    checks: [{ name: `ready within ${TARGET_MS} ms`, actual: `${round(readyMedian, 1)} ms`, pass: readyMedian <= TARGET_MS }],
  };
}
