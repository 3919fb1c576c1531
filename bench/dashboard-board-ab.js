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
// "ready" is dashboard-board.js's (loadBoard): every column counted (checked against the API's
// count) and its first cards on screen. Prints each build's median and the paired difference.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium, signedInPage } from './dashboard.js';
import { loadBoard, seedDeals } from './dashboard-board.js';
import { installCleanup } from './processes.js';
import { startSandbox } from './servers.js';
import { median, round } from './stats.js';

const [extra, loads, ...builds] = process.argv.slice(2);
if (builds.length !== 2) throw new Error('usage: node bench/dashboard-board-ab.js EXTRA_DEALS LOADS BUILD_A BUILD_B');

const start = (build) =>
  startSandbox(join(mkdtempSync(join(tmpdir(), 'crm-board-ab-')), 'sandbox.db'), ['--rate-limit', '0', '--quota', '0'], join(resolve(build), 'bin', 'crm.js'));

installCleanup(); // the sandboxes go with this process, however it ends
const sandboxes = await Promise.all(builds.map(start));
const browser = await launchChromium();
try {
  const totals = await Promise.all(sandboxes.map((s) => seedDeals(s, Number(extra))));
  const pages = [];
  for (const s of sandboxes) pages.push(await signedInPage(browser, s));
  const ready = [[], []];
  for (let i = 0; i < Number(loads); i++) {
    for (const k of i % 2 ? [1, 0] : [0, 1]) ready[k].push((await loadBoard(pages[k], sandboxes[k].base_url, totals[k])).ready);
  }
  builds.forEach((build, k) =>
    console.log(
      `${build}: ${totals[k]} deals, ready median ${round(median(ready[k]), 1)} ms (min ${round(Math.min(...ready[k]), 1)}, max ${round(Math.max(...ready[k]), 1)})`,
    ),
  );
  const paired = ready[1].map((b, i) => b - ready[0][i]);
  console.log(
    `${builds[1]} - ${builds[0]}: paired median ${round(median(paired), 1)} ms, ${builds[1]} faster in ${paired.filter((d) => d < 0).length} of ${loads}`,
  );
} finally {
  await browser.close();
  await Promise.all(sandboxes.map((s) => s.stop()));
}
