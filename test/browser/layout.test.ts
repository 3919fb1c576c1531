import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * Tables and buttons as people read them (issue #24): at 1440 and 1024 px, no table header, cell,
 * link or button breaks a word across lines, and no header or button is cut (its content wider
 * than its box). Measured in the page: a word broken across lines has two client rects. A
 * screenshot of each page at each width goes to test-artifacts/screenshots/widths/.
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

const SHOTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'screenshots', 'widths');
const PAGES = ['', 'leads', 'clients', 'deals', 'deals?view=board', 'invoices', 'api-keys', 'oauth-apps', 'webhooks', 'events', 'logs', 'usage', 'sandbox'];

/** Runs in the page: what is broken or cut, as "selector-ish: text" lines. */
function measure(): string[] {
  const problems: string[] = [];
  const name = (el: Element) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''}`;
  const visible = (el: Element) => (el as HTMLElement).offsetParent !== null;
  // Cut: a header or a button whose content is wider than its box (and not meant to scroll or truncate).
  for (const el of document.querySelectorAll('main th, main button, main .badge')) {
    if (!visible(el) || el.closest('.truncate')) continue;
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`cut ${name(el)}: ${el.textContent}`);
  }
  // Broken words: every word of every text node in a table, a button or a link is on one line.
  for (const host of document.querySelectorAll('main th, main td, main button, main a, main .badge')) {
    if (!visible(host)) continue;
    const walker = document.createTreeWalker(host, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        // One rect per line box; an empty rect (collapsed whitespace) does not count.
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) problems.push(`broken word in ${name(host)}: ${match[0]}`);
      }
    }
  }
  return [...new Set(problems)];
}

for (const width of [1440, 1024]) {
  describe(`${width} px wide`, () => {
    let page: Page;
    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      page = await suite.signedIn();
      await page.setViewportSize({ width, height: 900 });
    });
    afterAll(async () => page.context().close());
    for (const path of PAGES) {
      it(`/dashboard/${path}: no word broken across lines, no header or button cut`, async () => {
        await page.goto(`${suite.sandbox.baseUrl}/dashboard/${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.getByText('Loading…').waitFor({ state: 'detached' });
        await page.waitForTimeout(250);
        expect(await page.evaluate(measure)).toEqual([]);
        await page.screenshot({ path: join(SHOTS, `${(path || 'overview').replace(/[?=]/g, '-')}-${width}.png`) });
      });
    }
  });
}

describe('the measure itself', () => {
  it('sees a header squeezed until its word breaks, and a button too narrow for its name', async () => {
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/leads`);
    await page.locator('main tbody tr').first().waitFor();
    // Through the DOM and CSSOM: the dashboard's CSP refuses a <style> element (as it should).
    await page.evaluate(() => {
      const table = document.createElement('table');
      Object.assign(table.style, { tableLayout: 'fixed', width: '4ch' });
      const th = table.createTHead().insertRow().appendChild(document.createElement('th'));
      th.textContent = 'Squeezed';
      Object.assign(th.style, { whiteSpace: 'normal', wordBreak: 'break-all' });
      document.querySelector('main')!.append(table);
      Object.assign(document.querySelector<HTMLElement>('main .page-header button')!.style, { width: '3ch', overflow: 'hidden' });
    });
    const problems = await page.evaluate(measure);
    expect(problems).toEqual(expect.arrayContaining(['broken word in th: Squeezed', 'cut button.primary: New lead']));
    await page.context().close();
  });
});
