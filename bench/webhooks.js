// Benchmark "webhooks": the delivery worker under load. Leads are created over the API (each
// commits a lead.created event and its pending delivery in one transaction) while a local
// receiver, in this process, takes the signed POSTs and notes when each arrives. Reported per
// run of 10,000 events: events written per second, deliveries per second, and latency from
// commit (the event's created_at) to receipt. Three runs: paced at 1000 events/s (the targets),
// single POSTs as fast as 16 writers go, and a burst of 10 bulk calls of 1000, committed faster
// than they can be sent, which measures the worker's own rate.
import http from 'node:http';
import { join } from 'node:path';
import { Pool } from 'undici';
import { WARMUP_SECONDS } from './load.js';
import { cpuMs } from './processes.js';
import { UNLIMITED, startSandbox } from './servers.js';
import { percentile, round } from './stats.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const WRITERS = 16; // concurrent API writers
const PACE_PER_S = 1000;
const PACE_BATCH = 50;
const TARGET_PER_S = 1000;
const TARGET_P99_MS = 100;

/** A receiver answering 204 at once; records receipt time and the event's commit time per webhook-id. */
async function startReceiver() {
  const received = new Map(); // webhook-id -> { latency, at }
  let duplicates = 0;
  let waiter = null;
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const at = Date.now();
      const id = req.headers['webhook-id'];
      if (received.has(id)) duplicates++;
      else received.set(id, { latency: at - Date.parse(JSON.parse(body).created_at), at });
      res.writeHead(204).end();
      if (waiter && received.size >= waiter.count) waiter.resolve();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    received,
    duplicates: () => duplicates,
    reset() {
      received.clear();
      duplicates = 0;
    },
    until(count, timeoutMs = 300_000) {
      if (received.size >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${received.size} of ${count} deliveries arrived`)), timeoutMs);
        waiter = { count, resolve: () => (clearTimeout(timer), (waiter = null), resolve()) };
      });
    },
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

async function call(pool, key, method, path, body) {
  const res = await pool.request({
    method,
    path,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path} answered ${res.statusCode}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/** Creates `count` leads with WRITERS requests in flight; returns the seconds it took. */
async function createLeads(pool, key, count) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < count) {
        next++;
        await call(pool, key, 'POST', '/v1/leads', { first_name: 'Bench', email: 'hook@example.com' });
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

/** Commits `count` events at PACE_PER_S, in bulk calls of PACE_BATCH; returns the seconds it took. */
async function paced(pool, key, count, label) {
  const started = performance.now();
  for (let done = 0, tick = 0; done < count; done += PACE_BATCH, tick++) {
    const wait = started + (tick * PACE_BATCH * 1000) / PACE_PER_S - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const records = Array.from({ length: Math.min(PACE_BATCH, count - done) }, (_, i) => ({ first_name: `${label} ${done + i}` }));
    await call(pool, key, 'POST', '/v1/leads/bulk', { mode: 'create', records });
  }
  return (performance.now() - started) / 1000;
}

/** One result row from what the receiver got since `startedAt`, and the sandbox's CPU time since `cpuBefore`. */
function summarise(name, receiver, { startedAt, writeSeconds, cpuBefore, pid }) {
  const rows = [...receiver.received.values()];
  const latencies = rows.map((r) => r.latency).sort((a, b) => a - b);
  const cpu = cpuMs(pid);
  return {
    name,
    events_per_s: round(rows.length / writeSeconds, 0),
    deliveries_per_s: round(rows.length / ((Math.max(...rows.map((r) => r.at)) - startedAt) / 1000), 0),
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
    max_ms: latencies.at(-1),
    // CPU time of the sandbox (API writes and deliveries) per event: steadier than rates on a shared machine.
    sandbox_cpu_us_per_event: cpuBefore === null || cpu === null ? null : Math.round(((cpu - cpuBefore) * 1000) / rows.length),
    delivered: rows.length,
    duplicates: receiver.duplicates(),
  };
}

export async function run(ctx) {
  const receiver = await startReceiver();
  const sandbox = await startSandbox(join(ctx.tmp, 'webhooks.db'), ['--no-seed', ...UNLIMITED]);
  const pool = new Pool(sandbox.base_url, { connections: WRITERS });
  const key = sandbox.api_key;
  try {
    await call(pool, key, 'POST', '/v1/webhook_endpoints', { url: receiver.url });
    // Warm-up at the paced rate, as long as the load runs of the other benchmarks warm up: the
    // first seconds (JIT, statement caches, connections) cost about twice the CPU of later ones.
    await paced(pool, key, PACE_PER_S * WARMUP_SECONDS, 'Warm-up');
    await receiver.until(PACE_PER_S * WARMUP_SECONDS);

    const measureRun = async (name, write) => {
      receiver.reset();
      const startedAt = Date.now();
      const cpuBefore = cpuMs(sandbox.pid);
      const writeSeconds = await write();
      await receiver.until(EVENTS);
      return summarise(name, receiver, { startedAt, writeSeconds, cpuBefore, pid: sandbox.pid });
    };
    // Paced: events committed at a steady rate in small bulk calls, so that the latency is the
    // worker's and not a write queue's. The latency target is about this run.
    const live = await measureRun(`paced: ${EVENTS} events at ${PACE_PER_S}/s (bulk calls of ${PACE_BATCH})`, () => paced(pool, key, EVENTS, 'Paced'));

    // Single writes: one POST /v1/leads per event from WRITERS clients, as fast as the sandbox
    // takes them; the API and the worker share its one thread, so latency includes waiting
    // behind requests.
    const single = await measureRun(`writes: ${EVENTS} POST /v1/leads, ${WRITERS} writers`, () => createLeads(pool, key, EVENTS));

    // Burst: 10 bulk calls of 1000 commit the events far faster than they can be sent, so this
    // is the worker's own rate (latency here is mostly the wait in the queue; not a target).
    const backlog = await measureRun(`burst: ${EVENTS} events from bulk calls of 1000`, async () => {
      const started = performance.now();
      for (let done = 0; done < EVENTS; done += 1000) {
        const records = Array.from({ length: Math.min(1000, EVENTS - done) }, (_, i) => ({ first_name: `Burst ${done + i}` }));
        await call(pool, key, 'POST', '/v1/leads/bulk', { mode: 'create', records });
      }
      return (performance.now() - started) / 1000;
    });

    return {
      rows: [live, single, backlog],
      checks: [
        // The paced run delivers at the pace it is fed; the burst shows what the worker can do.
        { name: `burst deliveries >= ${TARGET_PER_S}/s`, actual: `${backlog.deliveries_per_s}/s`, pass: backlog.deliveries_per_s >= TARGET_PER_S },
        { name: `paced commit-to-receipt p99 < ${TARGET_P99_MS} ms`, actual: `${live.p99_ms} ms`, pass: live.p99_ms < TARGET_P99_MS },
        {
          name: 'no duplicates',
          actual: `${live.duplicates + single.duplicates + backlog.duplicates}`,
          pass: live.duplicates + single.duplicates + backlog.duplicates === 0,
        },
      ],
    };
  } finally {
    await pool.close();
    await sandbox.stop();
    await receiver.close();
  }
}
