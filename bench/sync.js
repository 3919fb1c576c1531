// Benchmark "sync": `crm sync import` and `crm sync export` of a generated leads CSV (100k and
// 1M rows) against a sandbox without limits, next to the physical floor on the same machine in
// the same run: the sqlite3 CLI's `.import` of the same file into a fresh table (no indexes, no
// validation, no events, no HTTP) and `sqlite3 -csv` of that table. Reports durations (median of
// BENCH_SYNC_REPEAT runs for 100k; one run at 1M, which takes minutes), the ratios to the floor,
// and the CLIENT's peak RSS (/usr/bin/time -f %M), which must stay flat in the file's size.
// A third line sits between the two: the sandbox's own write path alone (write-floor.js: the same
// rows and their events through the functions bulk uses, no HTTP, JSON, validation or client),
// which shows how much of the import the data model itself costs. Below it, the contract's rows in C
// (sql-floor.js: the same leads and lead.created events written by the sqlite3 CLI alone into the
// sandbox's schema): a lower bound for any server that stores an event per record.
// Clients (each with a contact person and an address) are imported at each size too (checked at the largest), beside
// the `.import` of their file and their contract rows in C: the second resource of `crm sync import`,
// with contacts and search. Also: the sandbox's peak RSS after each import, and an empty export.
// And the CPU time of each import's two processes, client and sandbox: over the machine's cores,
// the shortest an import could take here however its work were split, beside the same floor.
// BENCH_SYNC_ROWS=100000,1000000 picks the sizes.
import { once } from 'node:events';
import { createWriteStream, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startSandbox } from './servers.js';
import { median, round } from './stats.js';
import { cpuMs, track } from './processes.js';

const CRM = fileURLToPath(new URL('../bin/crm.js', import.meta.url));
const WRITE_FLOOR = fileURLToPath(new URL('./write-floor.js', import.meta.url));
const SQL_FLOOR = fileURLToPath(new URL('./sql-floor.js', import.meta.url));
const SQLITE = '/usr/bin/sqlite3';
const TIME = '/usr/bin/time'; // -f %M: the peak RSS of the command it runs, in KB; %U %S its CPU seconds
const SIZES = (process.env.BENCH_SYNC_ROWS ?? '100000,1000000').split(',').map(Number);
const REPEAT = Number(process.env.BENCH_SYNC_REPEAT ?? 3);
// docs/benchmarks.md: the import against the contract's rows in C (sql-floor.js), not .import; the export
// against sqlite3 -csv. docs/benchmarks.md: the peak RSS of both processes ≤ 200 MB, with no flag from the user.
const TARGETS = { import: 1.5, clientsImport: 2, export: 6, emptyExportMs: 300, rssMb: 200, sandboxRssMb: 200 };
const EMPTY_EXPORT_RUNS = 5;

/** A leads file as an integration would send it: every column, unique external ids and emails. */
export async function writeLeads(path, rows) {
  const out = createWriteStream(path);
  out.write('external_id,first_name,last_name,email,phone,company,title,source,status,tags,custom.score,notes\n');
  const sources = ['web', 'referral', 'event', 'cold_call', 'partner', 'other'];
  for (let i = 1; i <= rows; i++) {
    const line = `ext-${i},First${i},Last${i % 1000},lead${i}@example.com,+49 30 ${1000000 + i},Company ${i % 5000},Head of ${i % 7 ? 'Sales' : 'IT'},${sources[i % 6]},new,${i % 3 ? 'a|b' : ''},${i % 100},Note for lead ${i}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** A clients file: an address, tags, a custom field and one contact person per client. */
export async function writeClients(path, rows) {
  const out = createWriteStream(path);
  out.write(
    'external_id,name,kind,email,phone,website,address.line1,address.city,address.country,tags,custom.tier,contact.first_name,contact.last_name,contact.email,contact.role\n',
  );
  for (let i = 1; i <= rows; i++) {
    const line = `cx-${i},Client ${i} GmbH,company,c${i}@example.com,+49 30 ${2000000 + i},https://c${i}.example.com,"Street ${i}, Floor 2",Berlin,DE,${i % 3 ? 'vip|b2b' : ''},${i % 10},Anna${i},Meier,anna${i}@example.com,CEO\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Runs a command to its end; returns its wall time. */
async function timed(command, args, stdout = 'ignore') {
  const started = performance.now();
  const child = track(command, args, { stdio: ['ignore', stdout, 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`);
  return { ms: performance.now() - started };
}

async function sqliteImport(tmp, csv, i, table = 'leads') {
  const db = join(tmp, `floor-${i}.db`);
  rmSync(db, { force: true });
  return { db, ...(await timed(SQLITE, [db, '-cmd', '.mode csv', `.import ${csv} ${table}`])) };
}

/** write-floor.js or sql-floor.js: each times itself (not Node's start-up) and prints {"rows","ms"}. */
async function floorScript(script, tmp, csv, tag, extra = []) {
  const db = join(tmp, `floor-script-${tag}.db`);
  const child = track(process.execPath, [script, csv, db, ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (c) => (stdout += c));
  const [code] = await once(child, 'exit');
  for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  if (code !== 0) throw new Error(`${script} exited ${code}`);
  return JSON.parse(stdout);
}

async function sqliteExport(db, out) {
  const file = createWriteStream(out);
  await once(file, 'open');
  const result = await timed(SQLITE, ['-csv', '-header', db, 'SELECT * FROM leads'], file);
  file.close();
  return result;
}

/** The custom field the file's custom.<key> column fills: an import stops on a column that fills none (docs/sync.md#custom-fields). */
async function defineField(sandbox, field) {
  const response = await fetch(`${sandbox.base_url}/v1/fields`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify(field),
  });
  if (response.status !== 201) throw new Error(`POST /v1/fields: ${response.status} ${await response.text()}`);
}

async function crmImport(tmp, csv, i, resource = 'leads') {
  const db = join(tmp, `sandbox-${i}.db`);
  const sandbox = await startSandbox(db, ['--no-seed', '--rate-limit', '0', '--quota', '0']);
  const env = { ...process.env, CRM_BASE_URL: sandbox.base_url, CRM_API_KEY: sandbox.api_key };
  await defineField(
    sandbox,
    resource === 'leads' ? { object: 'lead', key: 'score', label: 'Score', type: 'number' } : { object: 'client', key: 'tier', label: 'Tier', type: 'number' },
  );
  const results = join(tmp, `results-${i}`);
  const args = [CRM, 'sync', 'import', resource, csv, '--results', results, '--json'];
  const started = performance.now();
  const sandboxCpuBefore = cpuMs(sandbox.pid);
  const child = track(TIME, ['-f', '%M %U %S', '-o', `${results}.rss`, process.execPath, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (c) => (stdout += c));
  const [code] = await once(child, 'exit');
  const ms = performance.now() - started;
  const sandboxCpu = cpuMs(sandbox.pid) - sandboxCpuBefore;
  const report = JSON.parse(stdout.trim().split('\n').pop());
  if (code !== 0 || report.summary.created !== report.rows) throw new Error(`import failed (${code}): ${stdout}`);
  const [peakKb, userS, systemS] = readFileSync(`${results}.rss`, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  const cpu = { clientMs: (userS + systemS) * 1000, sandboxMs: sandboxCpu };
  return { ms, peakMb: peakKb / 1024, cpu, sandboxPeakMb: peakRssMb(sandbox.pid), sandbox, env };
}

/**
 * The client and the sandbox share this machine's cores: however their work were divided between
 * threads, an import cannot take less than their CPU time together over the cores. Reported beside
 * the import's ratio as the shortest import possible here, over the same floor (docs/benchmarks.md).
 */
function cpuBound({ clientMs, sandboxMs }, floorMs) {
  const cores = availableParallelism();
  const shortestMs = (clientMs + sandboxMs) / cores;
  return `client ${round(clientMs / 1000, 1)} s + sandbox ${round(sandboxMs / 1000, 1)} s of CPU over ${cores} cores: ≥ ${round(shortestMs / 1000, 1)} s, ${round(shortestMs / floorMs, 2)}x`;
}

/** The imports' CPU, client and sandbox each the median of the runs. */
const medianCpu = (cpus) => ({ clientMs: median(cpus.map((c) => c.clientMs)), sandboxMs: median(cpus.map((c) => c.sandboxMs)) });

/** A running process's peak RSS so far (VmHWM), in MB. */
function peakRssMb(pid) {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) / 1024 : null;
}

/** `crm sync export leads` of an empty sandbox: the fixed cost (start-up, one request), median of 5. */
async function measureEmptyExport(tmp) {
  const sandbox = await startSandbox(join(tmp, 'empty.db'), ['--no-seed', '--rate-limit', '0', '--quota', '0']);
  try {
    const env = { ...process.env, CRM_BASE_URL: sandbox.base_url, CRM_API_KEY: sandbox.api_key };
    const runs = [];
    for (let i = 0; i < EMPTY_EXPORT_RUNS; i++) runs.push((await crmExport(sandbox, env, join(tmp, `empty-${i}.csv`))).ms);
    return resultRow('crm sync export, empty', 0, runs);
  } finally {
    await sandbox.stop();
  }
}

async function crmExport(sandbox, env, out) {
  const started = performance.now();
  const child = track(TIME, ['-f', '%M', '-o', `${out}.rss`, process.execPath, CRM, 'sync', 'export', 'leads', '--out', out], { env, stdio: 'ignore' });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`export exited ${code}`);
  return { ms: performance.now() - started, peakMb: Number(readFileSync(`${out}.rss`, 'utf8').trim().split('\n').pop()) / 1024 };
}

/** A line of the report: the median duration of runs over `rows`, and the client's peak RSS if measured. */
function resultRow(name, rows, values, rss) {
  return {
    name,
    median_s: round(median(values) / 1000, 2),
    runs: values.length,
    rows_per_s: Math.round(rows / (median(values) / 1000)),
    client_peak_rss_mb: rss ? round(Math.max(...rss), 1) : null,
  };
}

async function measure(tmp, rows) {
  const csv = join(tmp, `leads-${rows}.csv`);
  await writeLeads(csv, rows);
  const runs = rows > 200_000 ? 1 : REPEAT;
  const floorImport = [],
    floorExport = [],
    writePath = [],
    sqlFloor = [],
    imports = [],
    exports = [],
    importRss = [],
    exportRss = [],
    sandboxRss = [],
    cpus = [];
  for (let i = 0; i < runs; i++) {
    const tag = `${rows}-${i}`;
    const floor = await sqliteImport(tmp, csv, tag);
    floorImport.push(floor.ms);
    floorExport.push((await sqliteExport(floor.db, join(tmp, `floor-${tag}.csv`))).ms);
    rmSync(floor.db, { force: true });
    writePath.push((await floorScript(WRITE_FLOOR, tmp, csv, tag)).ms);
    sqlFloor.push((await floorScript(SQL_FLOOR, tmp, csv, tag)).ms);

    const imported = await crmImport(tmp, csv, tag);
    imports.push(imported.ms);
    cpus.push(imported.cpu);
    importRss.push(imported.peakMb);
    sandboxRss.push(imported.sandboxPeakMb);
    try {
      const exported = await crmExport(imported.sandbox, imported.env, join(tmp, `export-${tag}.csv`));
      exports.push(exported.ms);
      exportRss.push(exported.peakMb);
    } finally {
      await imported.sandbox.stop();
    }
    for (const f of [`sandbox-${tag}.db`, `sandbox-${tag}.db-wal`, `export-${tag}.csv`, `floor-${tag}.csv`]) rmSync(join(tmp, f), { force: true });
  }
  // The import's reference is the median of REPEAT floors at every size: one 1M floor moved between
  // 10.9 and 15.1 s from run to run (it commits ~1 GB of log at once: the disk, mostly), more than
  // the import did, and a single one made the ratio swing with it (docs/benchmarks.md).
  while (sqlFloor.length < REPEAT) sqlFloor.push((await floorScript(SQL_FLOOR, tmp, csv, `${rows}-floor-${sqlFloor.length}`)).ms);
  const mb = statSync(csv).size / 1e6;
  rmSync(csv, { force: true });
  const row = (name, values, rss) => resultRow(`${name} ${rows.toLocaleString('en')} rows`, rows, values, rss);
  return {
    rows: [
      row('sqlite3 .import', floorImport),
      row('contract rows in C (sqlite3)', sqlFloor),
      row('sandbox write path alone', writePath),
      row('crm sync import', imports, importRss),
      row('sqlite3 -csv export', floorExport),
      row('crm sync export', exports, exportRss),
    ],
    importRatio: median(imports) / median(floorImport),
    importFloorRatio: median(imports) / median(sqlFloor),
    cpuBound: cpuBound(medianCpu(cpus), median(sqlFloor)),
    sandboxRss: Math.max(...sandboxRss),
    writePathRatio: median(writePath) / median(floorImport),
    sqlFloorRatio: median(sqlFloor) / median(floorImport),
    exportRatio: median(exports) / median(floorExport),
    importRss: Math.max(...importRss),
    exportRss: Math.max(...exportRss),
    fileMb: mb,
  };
}

/** Clients: `crm sync import clients` beside `.import` of the same file (median of REPEAT runs; one import at 1M, REPEAT floors). */
async function measureClients(tmp, rows) {
  const csv = join(tmp, `clients-${rows}.csv`);
  await writeClients(csv, rows);
  const floor = [],
    sqlFloor = [],
    imports = [],
    rss = [],
    cpus = [];
  for (let i = 0; i < (rows > 200_000 ? 1 : REPEAT); i++) {
    const tag = `clients-${rows}-${i}`;
    const imported = await sqliteImport(tmp, csv, tag, 'clients');
    floor.push(imported.ms);
    rmSync(imported.db, { force: true });
    sqlFloor.push((await floorScript(SQL_FLOOR, tmp, csv, tag, ['clients'])).ms);
    const crm = await crmImport(tmp, csv, tag, 'clients');
    await crm.sandbox.stop();
    imports.push(crm.ms);
    cpus.push(crm.cpu);
    rss.push(crm.peakMb);
    for (const f of [`sandbox-${tag}.db`, `sandbox-${tag}.db-wal`]) rmSync(join(tmp, f), { force: true });
  }
  // The median of REPEAT floors at every size, as the leads' (measure above): one 1M floor of the
  // clients took 32.15 s in a run and 25.52 s in the next, the import 65.7 and 68.0 s.
  while (sqlFloor.length < REPEAT) sqlFloor.push((await floorScript(SQL_FLOOR, tmp, csv, `clients-${rows}-floor-${sqlFloor.length}`, ['clients'])).ms);
  rmSync(csv, { force: true });
  const label = rows.toLocaleString('en');
  const line = (name, values, peak) => resultRow(`${name} ${label} clients`, rows, values, peak);
  return {
    rows: [line('sqlite3 .import', floor), line('contract rows in C (SQLite 3.54)', sqlFloor), line('crm sync import', imports, rss)],
    ratio: median(imports) / median(floor),
    floorRatio: median(imports) / median(sqlFloor),
    cpuBound: cpuBound(medianCpu(cpus), median(sqlFloor)),
  };
}

export async function run(ctx) {
  const rows = [];
  const figures = {};
  const checks = [];
  const rss = [];
  for (const size of SIZES) {
    process.stderr.write(`bench sync: ${size.toLocaleString('en')} rows...\n`);
    const m = await measure(ctx.tmp, size);
    rows.push(...m.rows);
    const label = size.toLocaleString('en');
    figures[`file ${label} rows`] = `${round(m.fileMb, 1)} MB`;
    figures[`import / sqlite3 .import (${label})`] = `${round(m.importRatio, 1)}x`;
    figures[`contract rows in C / sqlite3 .import (${label})`] = `${round(m.sqlFloorRatio, 1)}x`;
    figures[`write path alone / sqlite3 .import (${label})`] = `${round(m.writePathRatio, 1)}x`;
    figures[`export / sqlite3 -csv (${label})`] = `${round(m.exportRatio, 1)}x`;
    figures[`import / contract rows in C (${label})`] = `${round(m.importFloorRatio, 2)}x`;
    figures[`shortest import possible here / contract rows in C (${label})`] = m.cpuBound;
    checks.push({
      name: `import <= ${TARGETS.import}x the contract rows in C (${label} rows)`,
      actual: `${round(m.importFloorRatio, 2)}x`,
      pass: m.importFloorRatio <= TARGETS.import,
    });
    checks.push({
      name: `sandbox peak RSS <= ${TARGETS.sandboxRssMb} MB (${label} rows imported)`,
      actual: `${round(m.sandboxRss, 0)} MB`,
      pass: m.sandboxRss <= TARGETS.sandboxRssMb,
    });
    checks.push({
      name: `export <= ${TARGETS.export}x sqlite3 -csv (${label} rows)`,
      actual: `${round(m.exportRatio, 1)}x`,
      pass: m.exportRatio <= TARGETS.export,
    });
    checks.push({
      name: `client peak RSS <= ${TARGETS.rssMb} MB (${label} rows, import / export)`,
      actual: `${round(m.importRss, 0)} / ${round(m.exportRss, 0)} MB`,
      pass: Math.max(m.importRss, m.exportRss) <= TARGETS.rssMb,
    });
    rss.push(m.importRss);
  }
  // docs/benchmarks.md: clients ≤ 2x their contract rows at the largest size, as the leads; each size reported.
  for (const size of SIZES) {
    process.stderr.write(`bench sync: ${size.toLocaleString('en')} clients...\n`);
    const clients = await measureClients(ctx.tmp, size);
    rows.push(...clients.rows);
    const label = size.toLocaleString('en');
    figures[`clients import / sqlite3 .import (${label})`] = `${round(clients.ratio, 1)}x`;
    figures[`clients import / contract rows in C (${label})`] = `${round(clients.floorRatio, 2)}x`;
    figures[`shortest clients import possible here / contract rows in C (${label})`] = clients.cpuBound;
    if (size === Math.max(...SIZES)) {
      checks.push({
        name: `clients import <= ${TARGETS.clientsImport}x their contract rows in C (${label} clients)`,
        actual: `${round(clients.floorRatio, 2)}x`,
        pass: clients.floorRatio <= TARGETS.clientsImport,
      });
    }
  }
  const empty = await measureEmptyExport(ctx.tmp);
  rows.push(empty);
  checks.push({
    name: `empty export <= ${TARGETS.emptyExportMs / 1000} s`,
    actual: `${empty.median_s} s`,
    pass: empty.median_s * 1000 <= TARGETS.emptyExportMs,
  });
  if (rss.length > 1) {
    const growth = Math.max(...rss) / Math.min(...rss);
    checks.push({ name: 'client import RSS flat in the file size (largest / smallest < 1.5)', actual: `${round(growth, 2)}x`, pass: growth < 1.5 });
  }
  return { rows, figures, checks };
}
