// An open-loop load generator (docs/benchmarks.md: "p99 at 300 req/s offered"): requests leave on a fixed
// schedule, one every 1000/rate ms, whatever the server does, over at most `connections`
// keep-alive connections; each latency runs from the moment the request was *due* to the end of
// its response (as wrk2 measures). A server that stalls therefore pays for every request that was
// due during the stall, and a client that falls behind (a busy connection, a late timer) counts
// against the server too: the figure can only err on the server's side.
//
// Why not autocannon's `overallRate` (8.0): it is not a schedule. Each connection sends back to back
// until it has made its share of the second's requests, then waits for the next second, so 300/s
// arrives as a burst of 300 at the top of each second on 10 busy connections; and it corrects for
// coordinated omission with an expected interval of `Math.ceil(1 / rate)` — 1 ms for a connection's
// 30/s, where 33 ms was meant — which adds a made-up sample for every millisecond of a slow
// response. docs/benchmarks.md has the two side by side on the same server.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { WARMUP_SECONDS } from './load.js';
import { cpuMs } from './processes.js';
import { percentile, round } from './stats.js';

/**
 * Sends `rate` requests a second for `seconds` to `url` and resolves with every latency (ms, in
 * schedule order) and the failures (non-2xx answers, network errors and requests with no answer
 * within `timeoutMs`, each still timed).
 */
export function openLoop({ url, headers = {}, rate, seconds, connections = 10, timeoutMs = 10_000 }) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * seconds);
  const latencies = new Array(total);
  let start = 0; // set when the first request is due
  const dueAt = (k) => start + (k * 1000) / rate;
  let sent = 0;
  let finished = 0;
  let failures = 0;
  return new Promise((resolve) => {
    const done = (k, ok) => {
      if (latencies[k] !== undefined) return; // an answer that ends and then errors counts once
      latencies[k] = performance.now() - dueAt(k);
      if (!ok) failures++;
      if (++finished === total) {
        agent.destroy();
        resolve({ latencies, failures });
      }
    };
    const send = (k) => {
      const request = http.get({ host: target.hostname, port: target.port, path: target.pathname + target.search, headers, agent }, (response) => {
        response.resume();
        response.on('end', () => done(k, response.statusCode >= 200 && response.statusCode < 300));
        response.on('error', () => done(k, false));
      });
      request.on('error', () => done(k, false));
      // A server that never answers fails the request (timed at the limit) instead of hanging the bench.
      request.setTimeout(timeoutMs, () => request.destroy(new Error('no answer')));
    };
    // Everything due by now goes out (a late timer sends what it owes at once, as a real clock
    // of arrivals would have), then a timer for the next one.
    const tick = () => {
      const now = performance.now();
      while (sent < total && dueAt(sent) <= now) send(sent++);
      if (sent < total) setTimeout(tick, Math.max(0, dueAt(sent) - performance.now()));
    };
    start = performance.now();
    tick();
  });
}

/**
 * A warm-up at the same rate (its figures thrown away), then the measured run: one result row, as
 * load.js's measure() makes for the closed-loop runs. `pid` is the server's, for its CPU a request.
 *
 * The client runs in a Node process of its own (this file as a script), as wrk2 would: the bench's
 * own process has run autocannon and every earlier section by then, and its collections (up to ~6 ms
 * each, 4-12 ms a second while it answered 300 requests/s) held the client's sends and reads, which
 * the open loop rightly charges to the server. After the same creates on the same sandbox, fifteen
 * alternating runs measured p99 5.4 ms (median; 2.2-11.4) in-process and 2.8 ms (2.3-4.6) from a
 * fresh process (docs/benchmarks.md, sixteenth round).
 */
export function measureOpenLoop(name, request, load) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), JSON.stringify({ name, request, load })], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the open-loop client for ${name} exited with ${code}`))));
  });
}

/** The measured run itself, in the client's process. */
async function runOpenLoop(name, { url, headers }, { rate, connections, duration, pid }) {
  await openLoop({ url, headers, rate, connections, seconds: WARMUP_SECONDS });
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  const { latencies, failures } = await openLoop({ url, headers, rate, connections, seconds: duration });
  const elapsedS = (performance.now() - started) / 1000;
  const cpuUsed = cpuMs(pid) - cpuBefore;
  if (failures > 0) process.stderr.write(`bench: ${name}: ${failures} of ${latencies.length} requests failed\n`);
  return {
    name,
    rps: round(latencies.length / elapsedS),
    p50_ms: round(percentile(latencies, 50), 1),
    p99_ms: round(percentile(latencies, 99), 1),
    max_ms: round(Math.max(...latencies), 1),
    server_cpu_us_per_req: cpuBefore === null ? null : Math.round((cpuUsed * 1000) / latencies.length),
    requests: latencies.length,
    failures,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { name, request, load } = JSON.parse(process.argv[2]);
  process.stdout.write(JSON.stringify(await runOpenLoop(name, request, load)));
  process.exit(0); // keep-alive sockets of the warm-up must not hold the process
}
