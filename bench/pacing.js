// Benchmark "pacing" (docs/benchmarks.md): `crm sync import` of 20,000 leads against a sandbox limited to
// 20 requests/s (a bulk call counts as one), with batches of 500 (40 calls) and of 100 (200 calls),
// 8 in flight. Reports the 429s the server answered and the rate the import ran at, against the
// goals: at most a handful of 429s, at least 90 % of 20 requests/s. The rate is measured in the
// server's request log, from the first bulk call to the last, so the CLI's start-up is not in it.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { get, startSandbox } from './servers.js';
import { round } from './stats.js';

const ROWS = 20_000;
const LIMIT = 20;
const CRM = fileURLToPath(new URL('../bin/crm.js', import.meta.url));

async function api(sandbox, path) {
  for (;;) {
    const res = await get(`${sandbox.base_url}${path}`, { authorization: `Bearer ${sandbox.api_key}` });
    if (res.status !== 429) return JSON.parse(res.body);
    await new Promise((r) => setTimeout(r, 1100)); // our own reads are limited too
  }
}

async function importOnce(ctx, batchSize) {
  const file = join(ctx.tmp, `pacing-${batchSize}.csv`);
  const lines = ['external_id,first_name,email'];
  for (let i = 1; i <= ROWS; i++) lines.push(`pace-${i},First${i},pace${i}@example.com`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const sandbox = await startSandbox(join(ctx.tmp, `pacing-${batchSize}.db`), ['--no-seed', '--rate-limit', `${LIMIT}/1s`, '--quota', '0']);
  try {
    const code = await new Promise((resolve) => {
      const child = spawn(process.execPath, [CRM, 'sync', 'import', 'leads', file, '--batch-size', String(batchSize), '--concurrency', '8', '--json'], {
        env: { ...process.env, CRM_BASE_URL: sandbox.base_url, CRM_API_KEY: sandbox.api_key },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('close', resolve);
    });
    const logs = (await api(sandbox, '/v1/request_logs?path_prefix=/v1/leads/bulk&limit=1000')).data;
    const times = logs.map((l) => Date.parse(l.created_at)).sort((a, b) => a - b);
    const seconds = (times.at(-1) - times[0]) / 1000;
    const limited = logs.filter((l) => l.status === 429).length;
    const rate = (logs.length - 1) / seconds;
    return {
      name: `${ROWS} leads, batches of ${batchSize}, 8 in flight`,
      exit_code: code,
      bulk_requests: logs.length,
      status_429: limited,
      seconds: round(seconds, 2),
      requests_per_s: round(rate, 2),
      of_limit_pct: round((rate / LIMIT) * 100, 1),
    };
  } finally {
    await sandbox.stop();
  }
}

export async function run(ctx) {
  const rows = [await importOnce(ctx, 500), await importOnce(ctx, 100)];
  return {
    rows,
    checks: rows.flatMap((r) => [
      { name: `${r.name}: at most 5 429s`, actual: String(r.status_429), pass: r.status_429 <= 5 },
      { name: `${r.name}: at least 90 % of ${LIMIT}/s`, actual: `${r.of_limit_pct} %`, pass: r.of_limit_pct >= 90 },
    ]),
  };
}
