// `node bench/profile.js [path] [seconds]` (after `npm run build`): where a sandbox request's CPU
// goes. Starts a sandbox on a fresh file under `node --cpu-prof`, loads `path` (default
// /v1/deals?limit=50) with autocannon as bench/http.js does, stops the sandbox (which writes the
// profile) and prints the functions with the most self time, as a share of the sampled time the
// process was busy. The .cpuprofile is kept for Chrome DevTools (path printed).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { measure } from './load.js';
import { UNLIMITED, sandboxArgs, spawnNode } from './servers.js';
import { firstJsonLine, installCleanup, stop } from './processes.js';

const path = process.argv[2] ?? '/v1/deals?limit=50';
const seconds = Number(process.argv[3] ?? 10);
const dir = mkdtempSync(join(os.tmpdir(), 'crm-profile-'));
installCleanup();

const child = spawnNode(['--cpu-prof', `--cpu-prof-dir=${dir}`, ...sandboxArgs(join(dir, 'profile.db'), UNLIMITED)], dir);
const sandbox = await firstJsonLine(child);
const row = await measure(`GET ${path}`, { url: sandbox.base_url + path, headers: { authorization: `Bearer ${sandbox.api_key}` } }, { duration: seconds, pid: sandbox.pid });
await stop(child);

const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile written in ${dir}`);
const { nodes, samples, timeDeltas } = JSON.parse(readFileSync(join(dir, file), 'utf8'));

// Self time per node (sum of the intervals of the samples that landed on it), then per function.
const byId = new Map(nodes.map((n) => [n.id, n]));
const selfUs = new Map();
samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (timeDeltas[i] ?? 0)));
const perFunction = new Map();
let busy = 0;
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id);
  const name = callFrame.functionName || '(anonymous)';
  if (name === '(idle)') continue;
  busy += us;
  const where = callFrame.url ? `${callFrame.url.replace(/^.*\/(node_modules\/|src\/|dist\/)/, '$1')}:${callFrame.lineNumber + 1}` : '';
  const key = `${name} ${where}`.trim();
  perFunction.set(key, (perFunction.get(key) ?? 0) + us);
}
console.log(`${row.name}: ${row.rps} req/s, server CPU ${row.server_cpu_us_per_req} µs a request, p99 ${row.p99_ms} ms`);
console.log(`profile: ${join(dir, file)} (busy ${(busy / 1e6).toFixed(1)} s sampled)`);
for (const [key, us] of [...perFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30))) {
  console.log(`${((100 * us) / busy).toFixed(1).padStart(5)} %  ${key}`);
}
