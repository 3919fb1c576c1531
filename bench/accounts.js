// Benchmark "accounts" (docs/benchmarks.md): creating a seeded account, snapshot and restore of the seeded
// data and of 100k leads, memory per idle account, a valid and an unknown bearer with 101 accounts
// (docs/security.md), and the list benchmark with 100 accounts present against 1 (it should not move). One sandbox process on a fresh file, driven over HTTP.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { measure } from './load.js';
import { UNLIMITED, startSandbox } from './servers.js';
import { median, round, timingRow as row } from './stats.js';

const ACCOUNTS = 100;
const BIG = 100_000;
const LIST = '/v1/deals?limit=50';

async function call(base, key, method, path, body) {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return { ms: performance.now() - started, body: text ? JSON.parse(text) : null };
}

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
async function snapshotTimes(base, key, account, runs) {
  const path = `/_sandbox/accounts/${account}/snapshots`;
  const save = [];
  const restore = [];
  const restoreServer = [];
  for (let i = 0; i < runs; i++) {
    save.push((await call(base, key, 'POST', path, { name: `s${i}` })).ms);
    const r = await call(base, key, 'POST', `${path}/s${i}/restore`);
    restore.push(r.ms);
    restoreServer.push(r.body.took_ms);
    await call(base, key, 'DELETE', `${path}/s${i}`);
  }
  return { save, restore, restoreServer };
}

/**
 * docs/security.md: an unknown bearer was looked up in every account's tables (23.6 ms with 305 accounts,
 * against 2.3 ms for a valid key); with the credential index it costs what a valid one does.
 * Alternating, one request at a time; a made-up token each time (the failed-authentication limit
 * of 100 a minute is not reached).
 */
async function bearerTimes(base, key) {
  const valid = [];
  const unknown = [];
  for (let i = 0; i < 50; i++) {
    for (const [token, into, status] of [
      [key, valid, 200],
      [`crm_test_${String(i).padStart(32, 'x')}`, unknown, 401],
    ]) {
      const started = performance.now();
      const res = await fetch(`${base}/v1/deals?limit=1`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== status) throw new Error(`GET /v1/deals with ${status === 200 ? 'the admin key' : 'an unknown bearer'}: ${res.status}`);
      into.push(performance.now() - started);
    }
  }
  return { valid, unknown };
}

export async function run(ctx) {
  const sandbox = await startSandbox(join(ctx.tmp, 'accounts.db'), UNLIMITED);
  const { base_url: base, api_key: key, pid } = sandbox;
  try {
    const load = { duration: ctx.duration, pid };
    const auth = { authorization: `Bearer ${key}` };
    const listOne = await measure(`GET ${LIST}, 1 account`, { url: base + LIST, headers: auth }, load);

    const rssBefore = rssMb(pid);
    const create = [];
    const made = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const r = await call(base, key, 'POST', '/_sandbox/accounts', { name: `bench ${i}`, plan: 'pro' });
      create.push(r.ms);
      made.push(r.body);
    }
    // Each account answers once, so its statements and caches exist as an idle account's would.
    for (const a of made) await call(base, a.api_key, 'GET', '/v1/deals?limit=1');
    const perAccountMb = (rssMb(pid) - rssBefore) / ACCOUNTS;
    const bearers = await bearerTimes(base, key);
    const listHundred = await measure(`GET ${LIST}, ${ACCOUNTS + 1} accounts`, { url: base + LIST, headers: auth }, load);

    const seeded = await snapshotTimes(base, key, made[0].id, 10);
    // 100k leads in one account, then its snapshot and restore.
    const big = made[1];
    for (let i = 0; i < BIG / 1000; i++) {
      await call(base, big.api_key, 'POST', '/v1/leads/bulk', {
        mode: 'create',
        records: Array.from({ length: 1000 }, (_, j) => ({ first_name: 'Bulk', last_name: `${i}-${j}` })),
      });
    }
    const large = await snapshotTimes(base, key, big.id, 3);
    // A/B/A: the list again with the hundred accounts deleted, so drift over the run shows as drift.
    for (const a of made) await call(base, key, 'DELETE', `/_sandbox/accounts/${a.id}`);
    const listOneAgain = await measure(`GET ${LIST}, 1 account again`, { url: base + LIST, headers: auth }, load);
    return {
      rows: [
        row('create a seeded account (HTTP round trip)', create),
        row('snapshot save, seeded data', seeded.save),
        row('snapshot restore, seeded data (HTTP)', seeded.restore),
        row('snapshot restore, seeded data (server)', seeded.restoreServer),
        row(`snapshot save, ${BIG / 1000}k leads more`, large.save),
        row(`snapshot restore, ${BIG / 1000}k leads more (server)`, large.restoreServer),
        row(`a valid key, ${ACCOUNTS + 1} accounts (HTTP round trip)`, bearers.valid),
        row(`an unknown bearer, ${ACCOUNTS + 1} accounts (HTTP round trip, 401)`, bearers.unknown),
        { name: 'memory per idle account (RSS)', mb: round(perAccountMb, 2) },
        { name: listOne.name, rps: listOne.rps, p99_ms: listOne.p99_ms },
        { name: listHundred.name, rps: listHundred.rps, p99_ms: listHundred.p99_ms },
        { name: listOneAgain.name, rps: listOneAgain.rps, p99_ms: listOneAgain.p99_ms },
      ],
      checks: [
        { name: 'seeded account ready within 50 ms (median)', actual: `${round(median(create), 1)} ms`, pass: median(create) <= 50 },
        { name: 'seeded restore within 50 ms (median, HTTP)', actual: `${round(median(seeded.restore), 1)} ms`, pass: median(seeded.restore) <= 50 },
        {
          name: 'list with 101 accounts within 10 % of 1 (mean of before and after)',
          actual: `${round((listHundred.rps / ((listOne.rps + listOneAgain.rps) / 2)) * 100, 1)} %`,
          pass: listHundred.rps >= 0.9 * ((listOne.rps + listOneAgain.rps) / 2),
        },
      ],
    };
  } finally {
    await sandbox.stop();
  }
}
