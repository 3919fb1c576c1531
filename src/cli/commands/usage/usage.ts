import type { Usage } from '../../../schemas/usage.js';
import { withClient, type GlobalOptions } from '../../api.js';
import { bold, dim, printJson, table } from '../../output.js';

/** `crm usage [--watch]`: today's usage; with --watch on a terminal, redrawn in place every second. */
export async function usageCommand(options: GlobalOptions & { watch: boolean }): Promise<void> {
  const live = options.watch && process.stdout.isTTY && !options.json;
  await withClient(options, async (client) => {
    do {
      const usage = await client.get<Usage>('/v1/usage');
      if (options.json) printJson(usage);
      else {
        if (live) process.stdout.write('\u001b[H\u001b[2J'); // home + clear: redraw in place
        process.stdout.write(render(usage));
      }
      if (options.watch) await new Promise((r) => setTimeout(r, 1000));
    } while (options.watch);
  });
}

function render(u: Usage): string {
  const last60 = u.requests_per_second.series.slice(-60);
  const rate = (last60.reduce((a, b) => a + b, 0) / 60).toFixed(1);
  const quota = u.quota ? `${u.quota.used} of ${u.quota.limit} (resets ${u.quota.resets_at})` : 'off';
  return [
    `${bold('Usage')} ${u.day} ${dim(`at ${u.generated_at}`)}`,
    `Requests today: ${u.totals.requests}   last minute: ${rate}/s   quota: ${quota}   rate limit: ${u.rate_limit ? `${u.rate_limit.limit}/${u.rate_limit.window_seconds}s` : 'off'}`,
    `Last 60 s: ${sparkline(last60)}`,
    '',
    table(
      ['ENDPOINT', 'REQUESTS'],
      u.by_endpoint.slice(0, 10).map((e) => [e.endpoint, e.requests]),
    ),
    table(
      ['STATUS', 'REQUESTS'],
      u.by_status.map((s) => [s.status, s.requests]),
    ),
    table(
      ['KEY', 'REQUESTS'],
      u.by_key.map((k) => [k.key_id, k.requests]),
    ),
  ].join('\n');
}

function sparkline(values: number[]): string {
  const bars = '▁▂▃▄▅▆▇█';
  const max = Math.max(1, ...values);
  return values.map((v) => bars[Math.min(bars.length - 1, Math.floor((v / max) * (bars.length - 1)))]).join('');
}
