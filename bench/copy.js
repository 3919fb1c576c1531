// Benchmark "copy": `crm sync copy` of 100,000 records between two sandboxes on this machine, masked
// (--mask default), as a user runs it: the source holds clients with a contact person and an address,
// leads (some converted), deals in every stage and invoices in every state, filled through its API.
// Reports the copy's wall time, records/s and the CLIENT's peak RSS (/usr/bin/time -f %M), the target
// sandbox's peak RSS, then the same for a rerun (every record unchanged: what a nightly refresh costs
// when little moved). BENCH_COPY_RECORDS sets the size (default 100000; the mix stays in proportion);
// BENCH_COPY_NODE_OPTIONS is given to the copy's process only.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { track } from './processes.js';
import { UNLIMITED, startSandbox } from './servers.js';
import { round } from './stats.js';

const CRM = fileURLToPath(new URL('../bin/crm.js', import.meta.url));
const TIME = '/usr/bin/time';
const RECORDS = Number(process.env.BENCH_COPY_RECORDS ?? 100_000);
// The mix: 10 % clients, 60 % leads (1 in 30 converted), 25 % deals, 5 % invoices.
const MIX = { clients: 0.1, leads: 0.6, deals: 0.25, invoices: 0.05 };
const TARGETS = { recordsPerSecond: 2000, rssMb: 300 };
const STAGES = ['lead_in', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];

async function api(sandbox, method, path, body) {
  const response = await fetch(`${sandbox.base_url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.api_key}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await response.json();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** Runs `work(i)` for 0..n-1, `width` at a time. */
async function parallel(n, width, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

async function bulk(sandbox, resource, records) {
  const ids = new Array(records.length);
  await parallel(Math.ceil(records.length / 1000), 2, async (b) => {
    const { results } = await api(sandbox, 'POST', `/v1/${resource}/bulk`, { mode: 'create', records: records.slice(b * 1000, b * 1000 + 1000) });
    results.forEach((r) => (ids[b * 1000 + r.index] = r.id));
  });
  return ids;
}

export async function fill(sandbox) {
  // The custom fields the records hold, as a source with definitions has them (docs/reference/custom-fields.md).
  await api(sandbox, 'POST', '/v1/fields', { object: 'client', key: 'tier', label: 'Tier', type: 'number' });
  await api(sandbox, 'POST', '/v1/fields', { object: 'client', key: 'note', label: 'Note', type: 'text' });
  const n = Object.fromEntries(Object.entries(MIX).map(([k, share]) => [k, Math.round(RECORDS * share)]));
  const clients = await bulk(
    sandbox,
    'clients',
    Array.from({ length: n.clients }, (_, i) => ({
      name: `Kowalski ${i} Sp. z o.o.`,
      kind: 'company',
      email: `biuro${i}@firma${i}.pl`,
      phone: `+48 22 ${1000000 + i}`,
      website: `https://firma${i}.pl`,
      address: { line1: `ul. Długa ${i % 200}`, city: 'Gdańsk', postal_code: '80-001', country: 'PL' },
      custom_fields: { tier: i % 5, note: `Klient od ${2000 + (i % 25)}` },
      contacts: [
        {
          first_name: 'Katarzyna',
          last_name: `Nowak${i}`,
          email: `k.nowak${i}@firma${i}.pl`,
          phone: `+48 601 ${100000 + i}`,
          role: 'Prezes',
          is_primary: true,
        },
      ],
    })),
  );
  const leads = await bulk(
    sandbox,
    'leads',
    Array.from({ length: n.leads }, (_, i) => ({
      first_name: ['Anna', 'Jonas', 'Łukasz', 'Greta'][i % 4],
      last_name: `Müller${i}`,
      email: `lead${i}@example.de`,
      phone: `+49 30 ${2000000 + i}`,
      company: `Firma ${i % 3000} GmbH`,
      title: 'Einkauf',
      source: 'web',
      status: ['new', 'contacted', 'qualified', 'unqualified'][i % 4],
      notes: i % 3 ? null : `Messe ${i}, Rückruf erbeten`,
      tags: ['bench'],
    })),
  );
  const converts = Math.floor(n.leads / 30);
  await parallel(converts, 4, (i) => api(sandbox, 'POST', `/v1/leads/${leads[i * 30]}/convert`, { client_id: clients[i % clients.length] }));
  const deals = await bulk(
    sandbox,
    'deals',
    Array.from({ length: n.deals }, (_, i) => ({
      title: `Deal ${i}`,
      value: 1000 + i,
      currency: 'EUR',
      stage: STAGES[i % 6],
      client_id: clients[i % clients.length],
      lost_reason: i % 6 === 5 ? 'Price' : null,
    })),
  );
  await parallel(n.invoices, 4, async (i) => {
    const state = ['draft', 'open', 'paid', 'void'][i % 4];
    const invoice = await api(sandbox, 'POST', '/v1/invoices', {
      client_id: clients[i % clients.length],
      deal_id: deals[i % deals.length],
      currency: 'EUR',
      send: state === 'open' || state === 'paid',
      line_items: [{ description: `Usługa ${i}`, quantity: 1 + (i % 3), unit_price: 99.5 }],
    });
    if (state === 'paid') await api(sandbox, 'POST', `/v1/invoices/${invoice.id}/pay`);
    if (state === 'void') await api(sandbox, 'POST', `/v1/invoices/${invoice.id}/void`);
  });
  return n.clients + n.leads + n.deals + n.invoices;
}

async function copy(tmp, source, target, tag) {
  const rss = join(tmp, `copy-${tag}.rss`);
  const args = [
    CRM,
    'sync',
    'copy',
    '--from',
    source.base_url,
    '--to',
    target.base_url,
    '--mask',
    'default',
    '--mask-key-file',
    join(tmp, 'mask.key'),
    '--results',
    join(tmp, 'copy-results'),
    '--json',
  ];
  // BENCH_COPY_NODE_OPTIONS: for the copy only (e.g. --max-semi-space-size=8, see docs/sync.md "Memory").
  const nodeOptions = process.env.BENCH_COPY_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_COPY_NODE_OPTIONS } : {};
  const env = { ...process.env, ...nodeOptions, CRM_FROM_API_KEY: source.api_key, CRM_TO_API_KEY: target.api_key };
  const started = performance.now();
  const child = track(TIME, ['-f', '%M', '-o', rss, process.execPath, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (c) => (stdout += c));
  const [code] = await once(child, 'exit');
  const ms = performance.now() - started;
  const report = JSON.parse(stdout.trim().split('\n').pop());
  if (code !== 0) throw new Error(`copy exited ${code}: ${stdout}`);
  return { ms, report, peakMb: Number(readFileSync(rss, 'utf8').trim().split('\n').pop()) / 1024 };
}

function peakRssMb(pid) {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) / 1024 : null;
}

export async function run(ctx) {
  const source = await startSandbox(join(ctx.tmp, 'copy-source.db'), ['--no-seed', ...UNLIMITED]);
  const target = await startSandbox(join(ctx.tmp, 'copy-target.db'), ['--no-seed', ...UNLIMITED]);
  try {
    const fillStarted = performance.now();
    const records = await fill(source);
    process.stderr.write(`bench copy: source filled with ${records} records in ${round((performance.now() - fillStarted) / 1000, 1)} s\n`);
    const first = await copy(ctx.tmp, source, target, 'first');
    const targetPeak = peakRssMb(target.pid);
    const rerun = await copy(ctx.tmp, source, target, 'rerun');
    const row = (name, r) => ({
      name,
      records,
      seconds: round(r.ms / 1000, 2),
      'records/s': Math.round(records / (r.ms / 1000)),
      created: r.report.summary.created,
      unchanged: r.report.summary.unchanged,
      failed: r.report.summary.failed,
      'client peak RSS MB': round(r.peakMb, 0),
    });
    const rows = [row('crm sync copy, masked', first), row('rerun (nothing changed)', rerun)];
    return {
      rows,
      figures: { 'target sandbox peak RSS MB (after the first copy)': round(targetPeak, 0) },
      checks: [
        { name: `copy ≥ ${TARGETS.recordsPerSecond} records/s`, actual: rows[0]['records/s'], pass: rows[0]['records/s'] >= TARGETS.recordsPerSecond },
        { name: `client peak RSS ≤ ${TARGETS.rssMb} MB`, actual: rows[0]['client peak RSS MB'], pass: rows[0]['client peak RSS MB'] <= TARGETS.rssMb },
        {
          name: 'every record copied, none failed',
          actual: `${first.report.summary.created} created, ${first.report.summary.failed} failed`,
          pass: first.report.summary.created === records && first.report.summary.failed === 0,
        },
      ],
    };
  } finally {
    await Promise.all([source.stop(), target.stop()]);
  }
}
