import { AxeBuilder } from '@axe-core/playwright';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialogs, useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * Every page of the dashboard (docs/dashboard.md#pages): hostile data renders as text, no serious or critical
 * accessibility violation in light and dark, and a screenshot of each (test-artifacts/, gitignored).
 * With CRM_UPDATE_DOC_IMAGES=1 three of them are copied to docs/images/ (a plain run changes no tracked file).
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

const ROOT = join(import.meta.dirname, '..', '..');
const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
// The board's image (docs/images/board.png) is board.test.ts's, at 1440 px.
const DOC_IMAGES: Record<string, string> = { overview: 'dashboard-overview.png', webhooks: 'dashboard-webhooks.png' };
const PAGES: [path: string, heading: string][] = [
  ['', 'Overview'],
  ['leads', 'Leads'],
  ['clients', 'Clients'],
  ['deals', 'Deals'],
  ['deals?view=board', 'Deals'],
  ['invoices', 'Invoices'],
  ['api-keys', 'API keys'],
  ['oauth-apps', 'OAuth apps'],
  ['webhooks', 'Webhooks'],
  ['events', 'Events'],
  ['logs', 'Logs'],
  ['usage', 'Usage'],
  ['sandbox', 'Sandbox'],
];

const IMG = '<img src=x onerror=alert(1)>';
const SCRIPT = '"><script>alert(2)</script>';

describe('hostile data renders as text', () => {
  it('a lead, client and deal named with markup show the markup as text on every page they appear on; no dialog fires', async () => {
    const lead = await suite.api.post('/v1/leads', { first_name: IMG, last_name: SCRIPT, company: IMG, notes: SCRIPT, email: 'xss@example.com' });
    const client = await suite.api.post('/v1/clients', { name: IMG, email: 'xss@example.com' });
    const deal = await suite.api.post('/v1/deals', { title: SCRIPT, value: 1, currency: 'EUR', stage: 'lead_in', client_id: client.body.id });
    const key = await suite.api.post('/v1/api_keys', { name: IMG, scopes: ['leads:read'] });
    const hook = await suite.api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/xss', description: SCRIPT });
    const app = await suite.api.post('/v1/oauth_apps', { name: SCRIPT, redirect_uris: ['http://127.0.0.1:9/cb'], scopes: ['leads:read'] });
    expect([lead.status, client.status, deal.status, key.status, hook.status, app.status]).toEqual([201, 201, 201, 201, 201, 201]);
    const page = await suite.signedIn();
    const visits: [path: string, text: string, open?: string][] = [
      // The sandbox is seeded: filters find the new records.
      ['leads?email=xss@example.com', `${IMG} ${SCRIPT}`],
      ['clients?q=xss', IMG],
      [`deals?client_id=${client.body.id}`, SCRIPT],
      ['deals?view=board', SCRIPT],
      ['events?type=lead.created', SCRIPT, 'lead.created'],
      ['logs?method=POST&path_prefix=/v1/leads', SCRIPT, 'POST /v1/leads'],
      ['api-keys', IMG],
      ['webhooks', SCRIPT],
      ['oauth-apps', SCRIPT],
    ];
    for (const [path, text, open] of visits) {
      await page.goto(`${suite.sandbox.baseUrl}/dashboard/${path}`);
      if (open) await page.getByRole('button', { name: open }).last().click();
      await page.getByText(text, { exact: false }).first().waitFor();
      expect(await page.locator('img').count(), path).toBe(0);
      expect(await page.locator('script:not([src])').count(), path).toBe(0);
    }
    expect(dialogs.get(page)).toEqual([]);
    await page.context().close();
  }, 60_000);
});

describe('every page', () => {
  for (const scheme of ['light', 'dark'] as const) {
    // One test per page (one signed-in page per scheme): thirteen pages in one test took most of a
    // 90 s budget on a loaded CI machine.
    describe(scheme, () => {
      let page: Page;
      beforeAll(async () => {
        mkdirSync(SHOTS, { recursive: true });
        page = await suite.signedIn(scheme);
      });
      afterAll(async () => {
        expect(dialogs.get(page)).toEqual([]);
        await page.context().close();
      });
      for (const [path, heading] of PAGES) {
        it(`/dashboard/${path} has its heading, no serious or critical axe violation, and a screenshot`, async () => {
          await page.goto(`${suite.sandbox.baseUrl}/dashboard/${path}`);
          await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
          // Data arrives after the heading; live pages never go network-idle, so wait for the loading text to go.
          await page.getByText('Loading…').waitFor({ state: 'detached' });
          await page.waitForTimeout(250);
          // Dark mode changes only colours: there the contrast rule is the one that can differ.
          const axe = new AxeBuilder({ page });
          const results = await (scheme === 'dark' ? axe.withRules(['color-contrast']) : axe).analyze();
          const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
          expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
          const name = (path || 'overview').replace(/[?=]/g, '-');
          const file = join(SHOTS, `${name}-${scheme}.png`);
          await page.screenshot({ path: file });
          const docName = DOC_IMAGES[path || 'overview'];
          if (docName && scheme === 'light' && process.env.CRM_UPDATE_DOC_IMAGES === '1') copyFileSync(file, join(ROOT, 'docs', 'images', docName));
        });
      }
    });
  }
});

describe('keyboard and narrow windows', () => {
  it('is usable from the keyboard alone: reach a page by Tab and Enter, create an API key, see the focus ring', async () => {
    const page = await suite.signedIn();
    // Tab from the top of the page to the "API keys" link, as a keyboard user would.
    let focused = '';
    for (let i = 0; i < 20 && focused !== 'API keys'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate<string>("document.activeElement?.textContent ?? ''");
    }
    expect(focused).toBe('API keys');
    const outline = await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).not.toBe('none');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();

    await page.getByLabel('Name').focus();
    await page.keyboard.type('typed key');
    await page.getByLabel('leads read').focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Create key' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('new-secret').waitFor();
    await page.getByRole('row').filter({ hasText: 'typed key' }).filter({ hasText: 'leads:read' }).waitFor();
    await page.context().close();
  });

  it('fits half a laptop screen (640 px wide): no page scrolls sideways', async () => {
    const page = await suite.signedIn();
    await page.setViewportSize({ width: 640, height: 800 });
    for (const [path, heading] of PAGES) {
      await page.goto(`${suite.sandbox.baseUrl}/dashboard/${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.getByText('Loading…').waitFor({ state: 'detached' });
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow, path).toBe(0);
    }
    await page.context().close();
  }, 60_000);
});
