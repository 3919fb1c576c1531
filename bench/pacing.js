// Benchmark "pacing" (issue 15, not run by tests): `crm sync import` of 20,000 leads against a
// sandbox limited to 20 requests/s, batches of 500 (a bulk call counts as one request). Reports
// the 429s the server answered (from GET /v1/usage) and the requests per second achieved, against
// the goals: at most a handful of 429s, and at least 90 % of 20 requests/s.
//   node bench/pacing.js [--rows 20000] [--batch-size 500] [--concurrency 4]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { get, startSandbox } from './servers.js';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '20000' }, 'batch-size': { type: 'string', default: '500' }, concurrency: { type: 'string', default: '4' } },
});
const rows = Number(values.rows);
const LIMIT = 20;
const dir = mkdtempSync(join(tmpdir(), 'crm-bench-pacing-'));
const file = join(dir, 'leads.csv');
const lines = ['external_id,first_name,email'];
for (let i = 1; i <= rows; i++) lines.push(`pace-${i},First${i},pace${i}@example.com`);
writeFileSync(file, `${lines.join('\n')}\n`);

const sandbox = await startSandbox(join(dir, 'sandbox.db'), ['--no-seed', '--rate-limit', `${LIMIT}/1s`, '--quota', '0']);
try {
  const started = Date.now();
  const result = await new Promise((resolve) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'bin', 'crm.js'), 'sync', 'import', 'leads', file, '--batch-size', values['batch-size'], '--concurrency', values.concurrency, '--json'], {
      env: { ...process.env, CRM_BASE_URL: sandbox.base_url, CRM_API_KEY: sandbox.api_key },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('close', (code) => resolve({ code, out }));
  });
  const seconds = (Date.now() - started) / 1000;
  let usage;
  for (;;) {
    const res = await get(`${sandbox.base_url}/v1/usage`, { authorization: `Bearer ${sandbox.api_key}` });
    if (res.status !== 429) {
      usage = JSON.parse(res.body);
      break;
    }
    await new Promise((r) => setTimeout(r, 1100));
  }
  const count = (status) => usage.by_status.find((s) => s.status === status)?.requests ?? 0;
  const bulk = usage.by_endpoint.filter((e) => e.endpoint.includes('/bulk')).reduce((n, e) => n + e.requests, 0);
  const rate = bulk / seconds; // includes the CLI's start-up, so it slightly understates the rate
  console.log(JSON.stringify({ rows, exit_code: result.code, summary: JSON.parse(result.out || '{}').summary, seconds: Math.round(seconds * 100) / 100, bulk_requests: bulk, status_429: count(429), requests_per_second: Math.round(rate * 100) / 100, of_limit: `${Math.round((rate / LIMIT) * 100)} %` }));
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
