import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowser, type BrowserSuite } from '../helpers/browser.js';
import { measure, squeeze } from './measure-layout.js';

/**
 * Tables and buttons as people read them (docs/dashboard.md#pages): at 1440 and 1024 px, no table header, cell,
 * link or button breaks a word across lines, and no header or button is cut (its content wider
 * than its box). Measured in the page: a word broken across lines has two client rects. A
 * screenshot of each page at each width goes to test-artifacts/screenshots/widths/.
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

const SHOTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'screenshots', 'widths');
const PAGES = ['', 'leads', 'clients', 'deals', 'deals?view=board', 'invoices', 'api-keys', 'oauth-apps', 'webhooks', 'events', 'logs', 'usage', 'sandbox'];

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
    await page.evaluate(squeeze);
    const problems = await page.evaluate(measure);
    expect(problems).toEqual(expect.arrayContaining(['broken word in th: Squeezed', 'cut button.primary: New lead']));
    await page.context().close();
  });
});
