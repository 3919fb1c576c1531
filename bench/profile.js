// `node bench/profile.js [path] [seconds]` (after `npm run build`): where a sandbox request's CPU
// goes. Starts a sandbox on a fresh file under `node --cpu-prof`, loads `path` (default
// /v1/deals?limit=50) with autocannon as bench/http.js does, stops the sandbox (which writes the
// profile) and prints the functions with the most self time, as a share of the sampled time the
// process was busy. The .cpuprofile is kept for Chrome DevTools (path printed).
// `node bench/profile.js import [rows] [leads|clients]`: the same for the server side of `crm sync
// import` of a generated file (bench/sync.js's, 100,000 leads by default) into an empty sandbox.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { measure } from './load.js';
import { UNLIMITED, sandboxArgs, spawnNode } from './servers.js';
import { firstJsonLine, installCleanup, stop } from './processes.js';
import { writeClients, writeLeads } from './sync.js';

const importing = process.argv[2] === 'import';
const path = importing ? null : (process.argv[2] ?? '/v1/deals?limit=50');
const amount = Number(process.argv[3] ?? (importing ? 100_000 : 10));
const resource = process.argv[4] === 'clients' ? 'clients' : 'leads';
const dir = mkdtempSync(join(os.tmpdir(), 'crm-profile-'));
installCleanup();

const serverArgs = importing ? ['--no-seed', '--rate-limit', '0', '--quota', '0'] : UNLIMITED;
const child = spawnNode(['--cpu-prof', `--cpu-prof-dir=${dir}`, ...sandboxArgs(join(dir, 'profile.db'), serverArgs)], dir);
const sandbox = await firstJsonLine(child);
let row;
if (importing) {
  const csv = join(dir, `${resource}.csv`);
  await (resource === 'clients' ? writeClients : writeLeads)(csv, amount);
  const started = performance.now();
  const env = { ...process.env, CRM_BASE_URL: sandbox.base_url, CRM_API_KEY: sandbox.api_key };
  const crm = spawnSync(process.execPath, [fileURLToPath(new URL('../bin/crm.js', import.meta.url)), 'sync', 'import', resource, csv, '--json'], {
    env,
    encoding: 'utf8',
  });
  if (crm.status !== 0) throw new Error(`crm sync import exited ${crm.status}: ${crm.stderr}`);
  row = { name: `crm sync import ${resource}, ${amount} rows`, seconds: ((performance.now() - started) / 1000).toFixed(2) };
} else {
  row = await measure(
    `GET ${path}`,
    { url: sandbox.base_url + path, headers: { authorization: `Bearer ${sandbox.api_key}` } },
    { duration: amount, pid: sandbox.pid },
  );
}
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
console.log(
  importing ? `${row.name}: ${row.seconds} s` : `${row.name}: ${row.rps} req/s, server CPU ${row.server_cpu_us_per_req} µs a request, p99 ${row.p99_ms} ms`,
);
console.log(`profile: ${join(dir, file)} (busy ${(busy / 1e6).toFixed(1)} s sampled)`);
for (const [key, us] of [...perFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30))) {
  console.log(`${((100 * us) / busy).toFixed(1).padStart(5)} %  ${key}`);
}
