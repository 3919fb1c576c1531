// Load runs with autocannon, in this process. On a 2-core machine the load generator takes
// about one core; that is the same for every server measured, so the comparison stays fair.
import autocannon from 'autocannon';
import { cpuMs } from './processes.js';
import { round } from './stats.js';

export const CONNECTIONS = 50;
export const WARMUP_SECONDS = 2;

function fire(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * A warm-up (JIT, statement caches, keep-alive sockets; its figures are thrown away), then the
 * measured run. `request` is { url, method, headers, body }; `pid` is the server's process, whose
 * CPU time per request is reported too. Returns one result row.
 */
export async function measure(name, request, { duration, pid, connections = CONNECTIONS }) {
  const options = { connections, ...request };
  await fire({ ...options, duration: WARMUP_SECONDS });
  const cpuBefore = cpuMs(pid);
  const r = await fire({ ...options, duration });
  const cpuUsed = cpuMs(pid) - cpuBefore;
  // A fast error (401, 422, refused) is not throughput: make it visible instead of flattering.
  const failures = r.errors + r.timeouts + r.non2xx;
  if (failures > 0) process.stderr.write(`bench: ${name}: ${failures} of ${r.requests.total} requests failed\n`);
  return {
    name,
    rps: round(r.requests.average),
    p50_ms: round(r.latency.p50),
    p99_ms: round(r.latency.p99),
    server_cpu_us_per_req: cpuBefore === null ? null : Math.round((cpuUsed * 1000) / r.requests.total),
    requests: r.requests.total,
    failures,
  };
}
