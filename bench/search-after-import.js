// Benchmark "search-after-import" (docs/benchmarks.md#search-after-an-import): `crm sync import` of a generated leads CSV into a
// fresh sandbox, then at once the first `q=` search, with `/healthz` asked one request after another
// while that search runs. Reports the import's time, the first and a second search's, and the
// slowest `/healthz` answer of the search's time: a search that did a maintenance chore on the
// server's thread (rewriting the search rows of every record written) holds every request up.
// BENCH_SEARCH_ROWS (default 100000,1000000) sets the sizes; one import per size and build.
//
// Also a command of its own, alternating builds (each a folder with bin/, dist/, package.json, as
// for dashboard-board-ab.js), one CSV for all:
//   node bench/search-after-import.js ROWS ROUNDS BUILD_A [BUILD_B]
import { once } from 'node:events';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cpuMs, installCleanup, track } from './processes.js';
import { startSandbox } from './servers.js';
import { median, round, runIfMain } from './stats.js';
import { writeLeads } from './sync.js';

const CRM = fileURLToPath(new URL('../bin/crm.js', import.meta.url));
const SIZES = (process.env.BENCH_SEARCH_ROWS ?? '100000,1000000').split(',').map(Number);
// A word of one lead's email (lead77@example.com): prefix search, so lead77, lead770…, a few hundred at 1M.
const QUERY = 'lead77';
const TARGET_FIRST_SEARCH_MS = 1000; // the goal at 1M leads

function get(agent, url, headers = {}) {
  return new Promise((resolveGet, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolveGet({ status: res.statusCode, body }));
    });
    req.on('error', reject);
  });
}

async function timedGet(agent, url, headers) {
  const started = performance.now();
  const res = await get(agent, url, headers);
  return { ...res, ms: performance.now() - started, started, ended: performance.now() };
}

async function crmImport(crm, sandbox, csv, results) {
  const env = { ...process.env, CRM_BASE_URL: sandbox.base_url, CRM_API_KEY: sandbox.api_key };
  const started = performance.now();
  const child = track(process.execPath, [crm, 'sync', 'import', 'leads', csv, '--results', results, '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (c) => (stdout += c));
  const [code] = await once(child, 'exit');
  const report = JSON.parse(stdout.trim().split('\n').pop());
  if (code !== 0 || report.summary.created !== report.rows) throw new Error(`import failed (${code}): ${stdout}`);
  return performance.now() - started;
}

/**
 * One import with one build, then the first search with `/healthz` asked back to back beside it:
 * each /healthz that was under way while the search was is counted, and the slowest reported.
 */
export async function measureOnce(tmp, csv, rows, crm = CRM, tag = '0') {
  const db = join(tmp, `search-${tag}.db`);
  const sandbox = await startSandbox(db, ['--no-seed', '--rate-limit', '0', '--quota', '0'], crm);
  try {
    const cpuBefore = cpuMs(sandbox.pid);
    const importMs = await crmImport(crm, sandbox, csv, join(tmp, `results-${tag}`));
    const importCpuMs = cpuMs(sandbox.pid) - cpuBefore;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    const auth = { authorization: `Bearer ${sandbox.api_key}` };
    await get(agent, `${sandbox.base_url}/healthz`); // both sockets open before the clock starts
    let searching = true;
    const health = [];
    const poll = (async () => {
      while (searching) health.push(await timedGet(agent, `${sandbox.base_url}/healthz`));
    })();
    const first = await timedGet(agent, `${sandbox.base_url}/v1/leads?q=${QUERY}&limit=10`, auth);
    searching = false;
    await poll;
    if (first.status !== 200) throw new Error(`search answered ${first.status}: ${first.body.slice(0, 500)}`);
    const second = await timedGet(agent, `${sandbox.base_url}/v1/leads?q=${QUERY}&limit=10`, auth);
    agent.destroy();
    const during = health.filter((h) => h.started < first.ended);
    return {
      rows,
      importMs,
      importCpuMs,
      firstSearchMs: first.ms,
      secondSearchMs: second.ms,
      healthDuring: during.length,
      healthMaxMs: Math.max(...during.map((h) => h.ms)),
      found: JSON.parse(first.body).data.length,
    };
  } finally {
    await sandbox.stop();
    for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  }
}

const rowOf = (name, m) => ({
  name,
  import_s: round(m.importMs / 1000, 2),
  sandbox_cpu_import_s: round(m.importCpuMs / 1000, 2),
  first_search_ms: round(m.firstSearchMs, 1),
  second_search_ms: round(m.secondSearchMs, 1),
  healthz_during_search: m.healthDuring,
  healthz_max_ms: round(m.healthMaxMs, 1),
});

export async function run(ctx) {
  const rows = [];
  const checks = [];
  for (const size of SIZES) {
    const label = size.toLocaleString('en');
    process.stderr.write(`bench search-after-import: ${label} leads...\n`);
    const csv = join(ctx.tmp, `search-leads-${size}.csv`);
    await writeLeads(csv, size);
    const m = await measureOnce(ctx.tmp, csv, size, CRM, String(size));
    rmSync(csv, { force: true });
    rows.push(rowOf(`import ${label} leads, then q=${QUERY}`, m));
    if (size >= 1_000_000) {
      checks.push({
        name: `first search after a ${label}-lead import <= ${TARGET_FIRST_SEARCH_MS} ms`,
        actual: `${round(m.firstSearchMs, 1)} ms`,
        pass: m.firstSearchMs <= TARGET_FIRST_SEARCH_MS,
      });
    }
  }
  return { rows, checks };
}

async function main([rows, rounds, ...builds]) {
  if (!rows || !rounds || builds.length < 1) throw new Error('usage: node bench/search-after-import.js ROWS ROUNDS BUILD_A [BUILD_B]');
  installCleanup();
  const tmp = mkdtempSync(join(tmpdir(), 'crm-search-ab-'));
  try {
    const csv = join(tmp, 'leads.csv');
    await writeLeads(csv, Number(rows));
    const results = builds.map(() => []);
    for (let i = 0; i < Number(rounds); i++) {
      const order = i % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
      for (const k of order) {
        const m = await measureOnce(tmp, csv, Number(rows), join(resolve(builds[k]), 'bin', 'crm.js'), `${k}-${i}`);
        results[k].push(m);
        console.log(JSON.stringify(rowOf(`${builds[k]} round ${i + 1}`, m)));
      }
    }
    builds.forEach((build, k) => {
      const of = (key) => round(median(results[k].map((m) => m[key])), 1);
      console.log(
        `${build}: import median ${round(of('importMs') / 1000, 2)} s (sandbox CPU ${round(of('importCpuMs') / 1000, 2)} s), first search ${of('firstSearchMs')} ms, healthz max during it ${of('healthMaxMs')} ms`,
      );
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, main);
