import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCrm } from '../../test/helpers/cli-process.js';
import { SOAK_KEY, sleep, type ChaosSandbox } from './chaos.js';

/** Kills stop with the load; long before this many runs the import must have finished. */
const MAX_RUNS = 200;

/**
 * `crm sync import` of a CSV through the kills, as an ops person would rerun it: the first run, then
 * `--resume` after every run that stopped (the client retries a while; a kill longer than that
 * stops it with unprocessed.csv). Rows carry `soak-imp-<n>` as external_id, so the checker counts
 * them like every other confirmed write: each stored exactly once, with one lead.created.
 */
export async function importThroughChaos(sandbox: ChaosSandbox, dir: string, rows: number): Promise<{ markers: string[]; runs: number; done: boolean }> {
  const file = join(dir, 'import.csv');
  const markers = Array.from({ length: rows }, (_, i) => `soak-imp-${i}`);
  writeFileSync(file, ['external_id,first_name,last_name,email', ...markers.map((m) => `${m},Imported,${m},${m}@example.com`)].join('\n') + '\n');
  let runs = 0;
  for (;;) {
    const args = ['sync', 'import', 'leads', file, '--results', join(dir, 'import.results'), '--json', ...(runs > 0 ? ['--resume'] : [])];
    runs++;
    const res = await runCrm(args, { CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: SOAK_KEY });
    if (res.code === 0) return { markers, runs, done: true };
    if (runs >= MAX_RUNS) return { markers, runs, done: false };
    await sleep(500);
  }
}
