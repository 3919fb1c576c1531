// Benchmark "custom-fields" (docs/benchmarks.md#lists-by-a-custom-field): 1M leads with a select
// field (`tier`) and a number field (`employees`), then lists filtered and sorted by them over HTTP,
// each request timed alone (one at a time on a keep-alive connection: latency, not queueing).
// Every sample is another page (the next cursor, or another bound), so none is answered from the
// sandbox's page cache (store/list-json.ts). Goal: p99 ≤ 10 ms at 1M leads.
// BENCH_CF_ROWS (default 1000000) sets the leads, BENCH_CF_SAMPLES (default 300) the requests per case.
//
// Also a command of its own: node bench/custom-fields.js [ROWS]
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { installCleanup } from './processes.js';
import { UNLIMITED, startSandbox } from './servers.js';
import { percentile, round, runIfMain } from './stats.js';

const ROWS = Number(process.env.BENCH_CF_ROWS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_CF_SAMPLES ?? 300);
const TARGET_P99_MS = 10;
const SETTLE_MS = 5000;
const TIERS = ['gold', 'silver', 'bronze', 'platinum'];
const MAX_EMPLOYEES = 100_000;

function request(agent, base, method, path, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, agent, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function call(agent, base, method, path, headers, body) {
  const res = await request(agent, base, method, path, headers, body && JSON.stringify(body));
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return JSON.parse(res.text);
}

/** Lead i's values: every 10th lead has neither field, so the sort has records without a value. */
function lead(i) {
  const custom_fields = i % 10 === 9 ? {} : { tier: TIERS[i % TIERS.length], employees: (i * 7919) % MAX_EMPLOYEES };
  return { first_name: `First${i}`, last_name: `Last${i % 1000}`, email: `lead${i}@example.com`, company: `Company ${i % 5000}`, custom_fields };
}

/** Defines the two fields (so each has its index while the leads are written), then writes the leads in bulk calls, two at a time. */
async function fill(agent, base, auth, rows) {
  await call(agent, base, 'POST', '/v1/fields', auth, {
    object: 'lead',
    key: 'tier',
    label: 'Tier',
    type: 'select',
    options: TIERS.map((value) => ({ value, label: value })),
  });
  await call(agent, base, 'POST', '/v1/fields', auth, { object: 'lead', key: 'employees', label: 'Employees', type: 'number', decimals: 0 });
  const batch = (await call(agent, base, 'GET', '/v1/account', auth)).limits?.bulk_records ?? 1000;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < rows) {
      const from = next;
      next = Math.min(rows, next + batch);
      const records = [];
      for (let i = from; i < next; i++) records.push(lead(i));
      const res = await call(agent, base, 'POST', '/v1/leads/bulk', auth, { mode: 'create', records });
      const failed = res.summary.failed;
      if (failed) throw new Error(`bulk create: ${failed} records failed: ${JSON.stringify(res).slice(0, 300)}`);
      if (next % 100_000 === 0) process.stderr.write(`bench custom-fields: ${next.toLocaleString('en')} leads written\n`);
    }
  };
  await Promise.all([worker(), worker()]);
  return performance.now() - started;
}

/** Times `samples` requests one after another; `nextPath(previousBody)` gives each path. */
async function timed(agent, base, auth, samples, nextPath) {
  const ms = [];
  let body;
  for (let k = 0; k < samples; k++) {
    const path = nextPath(k, body);
    const started = performance.now();
    const res = await request(agent, base, 'GET', path, auth);
    ms.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
    body = JSON.parse(res.text);
    if (body.data.length === 0) throw new Error(`GET ${path}: an empty page`);
  }
  return ms;
}

/** Page after page of one list, each request with the previous page's next_cursor. */
const walk = (path) => (k, body) => (k === 0 || !body.next_cursor ? path : `${path}&cursor=${encodeURIComponent(body.next_cursor)}`);

/** The first page for another bound each time, over `from`..`to`. */
const bounds = (template, from, to) => (k) => template.replace('{v}', String(Math.round(from + ((to - from) * k) / SAMPLES)));

const CASES = [
  ['custom_fields.tier=gold&limit=50, page after page', walk('/v1/leads?custom_fields.tier=gold&limit=50')],
  ['custom_fields.tier=silver&sort=updated_at&limit=50, page after page', walk('/v1/leads?custom_fields.tier=silver&sort=updated_at&limit=50')],
  ['custom_fields.employees[gte]=50000&limit=50 (45 % match), page after page', walk('/v1/leads?custom_fields.employees[gte]=50000&limit=50')],
  ['custom_fields.employees[gte]=<40000..60000>&limit=50, first pages', bounds('/v1/leads?custom_fields.employees[gte]={v}&limit=50', 40_000, 60_000)],
  [
    'custom_fields.employees[gte]=<99900..99990>&limit=50 (< 0.1 % match), first pages',
    bounds('/v1/leads?custom_fields.employees[gte]={v}&limit=50', 99_900, 99_990),
  ],
  ['sort=custom_fields.employees&limit=50, page after page', walk('/v1/leads?sort=custom_fields.employees&limit=50')],
  ['sort=custom_fields.employees&order=desc&limit=50, page after page', walk('/v1/leads?sort=custom_fields.employees&order=desc&limit=50')],
  [
    'sort=custom_fields.employees&custom_fields.employees[gte]=<bound>&limit=50, first pages',
    bounds('/v1/leads?sort=custom_fields.employees&custom_fields.employees[gte]={v}&limit=50', 0, 99_000),
  ],
];

export async function measure(tmp, rows = ROWS) {
  const db = join(tmp, 'custom-fields.db');
  const sandbox = await startSandbox(db, ['--no-seed', ...UNLIMITED]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  try {
    const base = sandbox.base_url;
    const auth = { authorization: `Bearer ${sandbox.api_key}` };
    const fillMs = await fill(agent, base, auth, rows);
    // The lists are measured once the writes have settled (the WAL copied into the file by the
    // checkpoint thread after a million writes), not while that still runs beside them.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const results = [];
    for (const [name, paths] of CASES) {
      await timed(agent, base, auth, 20, paths); // warm-up: the statements prepared, the pages read once
      const ms = await timed(agent, base, auth, SAMPLES, paths);
      results.push({ name, ms });
    }
    return { fillMs, results };
  } finally {
    agent.destroy();
    await sandbox.stop();
    for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  }
}

const rowOf = (name, ms) => ({
  name,
  p50_ms: round(percentile(ms, 50), 2),
  p99_ms: round(percentile(ms, 99), 2),
  max_ms: round(Math.max(...ms), 2),
  samples: ms.length,
});

export async function run(ctx) {
  process.stderr.write(`bench custom-fields: ${ROWS.toLocaleString('en')} leads...\n`);
  const { fillMs, results } = await measure(ctx.tmp);
  const label = ROWS.toLocaleString('en');
  const rows = results.map(({ name, ms }) => rowOf(`${label} leads: ${name}`, ms));
  const checks = results.map(({ name, ms }) => {
    const p99 = percentile(ms, 99);
    return { name: `${name}: p99 <= ${TARGET_P99_MS} ms at ${label} leads`, actual: `${round(p99, 2)} ms`, pass: p99 <= TARGET_P99_MS };
  });
  return { rows, checks, figures: { [`writing ${label} leads in bulk calls (two at a time), s`]: round(fillMs / 1000, 1) } };
}

async function main([rows]) {
  installCleanup();
  const tmp = mkdtempSync(join(tmpdir(), 'crm-bench-cf-'));
  try {
    const { fillMs, results } = await measure(tmp, rows ? Number(rows) : ROWS);
    console.log(`filled in ${round(fillMs / 1000, 1)} s`);
    for (const { name, ms } of results) console.log(JSON.stringify(rowOf(name, ms)));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, main);
