// The deal board of two builds, loaded in alternation (not part of `npm run bench`): how the
// figures of docs/benchmarks.md's board round were taken. Each build is a folder holding a built
// copy of this repository (bin/, dist/, package.json; node_modules may be a link), e.g. made by
// `git worktree add` at another commit, `npm ci` and `npm run build` there.
//
//   node bench/dashboard-board-ab.js EXTRA_DEALS LOADS BUILD_A BUILD_B
//   node bench/dashboard-board-ab.js 1000 21 ../crm-before .
//
// A sandbox per build on the same data shape (the seed and EXTRA_DEALS more, dashboard-board.js),
// one Chromium, a signed-in tab per sandbox; each round loads both boards, the order alternating.
// "ready" is as dashboard-board.js measures it: every column counted (checked against the API's
// count) and its first cards on screen. Prints each build's median and the paired difference.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { seedDeals } from './dashboard-board.js';
import { firstJsonLine, installCleanup, stop, track } from './processes.js';
import { median, round } from './stats.js';

const [extra, loads, ...builds] = process.argv.slice(2);
if (builds.length !== 2) throw new Error('usage: node bench/dashboard-board-ab.js EXTRA_DEALS LOADS BUILD_A BUILD_B');

async function start(build) {
  const dir = mkdtempSync(join(tmpdir(), 'crm-board-ab-'));
  const crm = join(resolve(build), 'bin', 'crm.js');
  const child = track(process.execPath, [crm, 'sandbox', 'start', '--port', '0', '--json', '--db', join(dir, 'sandbox.db'), '--rate-limit', '0', '--quota', '0'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { ...(await firstJsonLine(child)), stop: () => stop(child) };
}

installCleanup(); // the sandboxes go with this process, however it ends
const sandboxes = await Promise.all(builds.map(start));
const browser = await chromium.launch({ executablePath: process.env.CRM_CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const totals = await Promise.all(sandboxes.map((s) => seedDeals(s, Number(extra))));
  const pages = [];
  for (const s of sandboxes) {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(s.dashboard_url);
    await page.getByRole('link', { name: 'Overview' }).waitFor();
    pages.push(page);
  }
  const ready = [[], []];
  for (let i = 0; i < Number(loads); i++) {
    for (const k of i % 2 ? [1, 0] : [0, 1]) {
      await pages[k].goto(`${sandboxes[k].base_url}/dashboard/deals?view=board`);
      await pages[k].locator('.board .deal-card').first().waitFor();
      const t = await pages[k].evaluate(() => ({
        now: performance.now(),
        counted: [...document.querySelectorAll('.column-count')].reduce((n, el) => n + Number(el.textContent.replace(/\D/g, '')), 0),
      }));
      if (t.counted !== totals[k]) throw new Error(`${builds[k]}: the board counts ${t.counted} deals, the API ${totals[k]}`);
      ready[k].push(t.now);
    }
  }
  builds.forEach((build, k) => console.log(`${build}: ${totals[k]} deals, ready median ${round(median(ready[k]), 1)} ms (min ${round(Math.min(...ready[k]), 1)}, max ${round(Math.max(...ready[k]), 1)})`));
  const paired = ready[1].map((b, i) => b - ready[0][i]);
  console.log(`${builds[1]} - ${builds[0]}: paired median ${round(median(paired), 1)} ms, ${builds[1]} faster in ${paired.filter((d) => d < 0).length} of ${loads}`);
} finally {
  await browser.close();
  await Promise.all(sandboxes.map((s) => s.stop()));
}
