import { AxeBuilder } from '@axe-core/playwright';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../web/src/records/format.js';
import { minorDigits } from '../../src/domain/money.js';
import { seriousAxeViolations, useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * The deal pipeline board (docs/dashboard.md#the-pipeline-board) in Chromium: cards dragged between stages and moved with the
 * keyboard's `Move to` menu, the API's transition rules and refusals, totals per currency, live
 * updates, paging by column. Every effect is checked through the API.
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

const ROOT = join(import.meta.dirname, '..', '..');
const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');

interface Deal {
  id: string;
  title: string;
  stage: string;
  value: number;
  currency: string;
  client_id: string | null;
  lost_reason?: string | null;
}

const STAGE_NAMES: Record<string, string> = {
  lead_in: 'Lead in',
  qualified: 'Qualified',
  proposal: 'Proposal',
  negotiation: 'Negotiation',
  won: 'Won',
  lost: 'Lost',
};

async function newDeal(title: string, stage: string, extra: Partial<Deal> = {}): Promise<Deal> {
  const res = await suite.api.post('/v1/deals', { title, value: 1000, currency: 'EUR', stage, ...extra });
  expect(res.status).toBe(201);
  return res.body;
}

async function board(): Promise<Page> {
  const page = await suite.signedIn();
  // Wide enough for all six columns: a drag that scrolls the board on its way (as Playwright's does
  // to reach a column off screen) is not one a person makes.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${suite.sandbox.baseUrl}/dashboard/deals?view=board`);
  await page.locator('.board').waitFor();
  return page;
}

const column = (page: Page, stage: string) => page.getByRole('region', { name: STAGE_NAMES[stage], exact: true });
const card = (page: Page, stage: string, title: string) =>
  column(page, stage)
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: title, exact: true }) });

const focusedText = (page: Page) => page.evaluate<string>("document.activeElement?.textContent ?? ''");

/** The deal's events (newest first) of the given types. */
async function eventsOf(dealId: string, types: string): Promise<{ type: string; data: { object: Deal } }[]> {
  const res = await suite.api.get(`/v1/events?type=${types}&limit=100`);
  expect(res.status).toBe(200);
  return res.body.data.filter((e: { data: { object: Deal } }) => e.data.object.id === dealId);
}

const countText = (n: number) => (n === 1 ? '1 deal' : `${n.toLocaleString('en-US')} deals`);

/** Each column's count as the board shows it, and as the API's summary has it. */
async function shownCounts(page: Page): Promise<Record<string, string>> {
  const counts: Record<string, string> = {};
  for (const stage of Object.keys(STAGE_NAMES)) counts[stage] = (await column(page, stage).locator('.column-count').textContent()) ?? '';
  return counts;
}
async function apiCounts(adjust: Record<string, number> = {}): Promise<Record<string, string>> {
  const { stages } = (await suite.api.get('/v1/deals/summary')).body as { stages: { stage: string; count: number }[] };
  return Object.fromEntries(stages.map((s) => [s.stage, countText(s.count + (adjust[s.stage] ?? 0))]));
}

// First, so the screenshots (and the README's image) show the seed's pipeline, not this file's test deals.
describe('layout', () => {
  it('fits at 1440 and 1024 px, light and dark: nothing overflows, no button wraps; screenshots', async () => {
    mkdirSync(SHOTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      const page = await suite.signedIn(scheme);
      for (const width of [1440, 1024]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${suite.sandbox.baseUrl}/dashboard/deals?view=board`);
        await page.locator('.board .deal-card').first().waitFor();
        // Wider than its box, or a button or heading on two lines (a word broken to fit).
        const bad = await page.evaluate<
          string[]
        >(`[...document.querySelectorAll('.board button, .column-head h2, .column-count, .column-totals li, .deal-card, .deal-value')]
          .filter((el) => {
            const style = getComputedStyle(el);
            const lines = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.45;
            const oneLine = el.matches('.deal-card') || el.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth) < lines * 1.5;
            return el.scrollWidth > el.clientWidth + 1 || !oneLine;
          })
          .map((el) => el.className + ': ' + el.textContent)`);
        expect(bad, `${width} ${scheme}`).toEqual([]);
        // The board scrolls sideways inside its frame, never the page.
        expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth'), `${width} ${scheme}`).toBe(0);
        if (scheme === 'dark') {
          const dark = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
          expect(dark.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
        }
        const file = join(SHOTS, `board-${width}-${scheme}.png`);
        await page.screenshot({ path: file });
        if (width === 1440 && scheme === 'light' && process.env.CRM_UPDATE_DOC_IMAGES === '1') copyFileSync(file, join(ROOT, 'docs', 'images', 'board.png'));
      }
      await page.context().close();
    }
  }, 60_000);
});

describe('moving cards', () => {
  it('a card dragged to another stage has that stage through the API, and deal.updated was emitted', async () => {
    const client = (await suite.api.post('/v1/clients', { name: 'Babbage Difference Works' })).body;
    const deal = await newDeal('Difference engine No. 2', 'qualified', { client_id: client.id });
    const page = await board();
    const source = card(page, 'qualified', deal.title);
    // The card names its client, not the client's id.
    await source.getByText('Babbage Difference Works').waitFor();
    expect(await source.textContent()).not.toContain(client.id);

    await source.dragTo(column(page, 'proposal'));
    await card(page, 'proposal', deal.title).waitFor();
    await expect.poll(async () => (await suite.api.get(`/v1/deals/${deal.id}`)).body.stage).toBe('proposal');
    const events = await eventsOf(deal.id, 'deal.updated');
    expect(events.map((e) => e.data.object.stage)).toContain('proposal');
    await page
      .getByRole('status')
      .filter({ hasText: `Moved ${deal.title} to Proposal.` })
      .waitFor();
    expect(await card(page, 'qualified', deal.title).count()).toBe(0);
    await page.context().close();
  });

  it('moves a card to Won with the keyboard (Move to menu): status won and deal.won; then reopens it', async () => {
    const deal = await newDeal('Analytical engine', 'negotiation');
    const page = await board();
    // Keyboard only: Tab from the card's link to its menu button, open it, arrow to Won, Enter.
    await card(page, 'negotiation', deal.title).getByRole('link', { name: deal.title }).focus();
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Move to');
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Move to' });
    await menu.waitFor();
    // The other stages, as people read them; the focus is on the first.
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Lead in', 'Qualified', 'Proposal', 'Won', 'Lost']);
    expect(await focusedText(page)).toBe('Lead in');
    expect(await seriousAxeViolations(page)).toEqual([]);
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    expect(await focusedText(page)).toBe('Won');
    await page.keyboard.press('Enter');

    await card(page, 'won', deal.title).waitFor();
    await expect.poll(async () => (await suite.api.get(`/v1/deals/${deal.id}`)).body.stage).toBe('won');
    const won = await eventsOf(deal.id, 'deal.won');
    expect(won).toHaveLength(1);
    // The focus follows the card to its new column, so the next move is one more key away.
    await expect.poll(() => page.evaluate<string>("document.activeElement?.closest('[data-deal]')?.getAttribute('data-deal') ?? ''")).toBe(deal.id);
    expect(await focusedText(page)).toBe('Move to');

    // Out of won only by reopening it: the menu's Qualified reopens the deal there. Enter is pressed
    // on the card's own button (a locator's press focuses it first): the deal's live events may still
    // be drawing the board, and a key sent to whatever has the focus then could go nowhere.
    await card(page, 'won', deal.title).getByRole('button', { name: 'Move to' }).press('Enter');
    await menu.getByRole('menuitem', { name: 'Qualified' }).press('Enter');
    await card(page, 'qualified', deal.title).waitFor();
    await expect.poll(async () => (await suite.api.get(`/v1/deals/${deal.id}`)).body).toMatchObject({ stage: 'qualified', won_at: null });
    await page.context().close();
  });

  it('asks why a deal is lost: Cancel leaves the card, the reason reaches the API with the move', async () => {
    const deal = await newDeal('Tabulating machine', 'proposal');
    const page = await board();
    await card(page, 'proposal', deal.title).dragTo(column(page, 'lost'));
    const dialog = page.getByRole('dialog', { name: `Mark ${deal.title} as lost?` });
    await dialog.waitFor();
    // The reason box has the focus, so the answer is typed at once.
    expect(await page.evaluate<string>("document.activeElement?.id ?? ''")).toBe('lose-reason');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'board-lose-dialog.png') });
    // Escape cancels: the card stays, nothing was sent.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await card(page, 'proposal', deal.title).count()).toBe(1);
    expect((await suite.api.get(`/v1/deals/${deal.id}`)).body).toMatchObject({ stage: 'proposal', lost_reason: null });
    expect(await eventsOf(deal.id, 'deal.lost')).toEqual([]);

    await card(page, 'proposal', deal.title).dragTo(column(page, 'lost'));
    await dialog.getByLabel('Why was it lost? (optional)').fill('Chose a cheaper supplier');
    await dialog.getByRole('button', { name: 'Mark as lost' }).click();
    await card(page, 'lost', deal.title).waitFor();
    await expect.poll(async () => (await suite.api.get(`/v1/deals/${deal.id}`)).body).toMatchObject({ stage: 'lost', lost_reason: 'Chose a cheaper supplier' });
    expect((await eventsOf(deal.id, 'deal.lost')).map((e) => e.data.object.lost_reason)).toEqual(['Chose a cheaper supplier']);

    // By keyboard, with no reason: Move to → Lost, Tab to the button, Enter; the focus comes back to the card.
    const other = await newDeal('Census punch cards', 'negotiation');
    await page.reload();
    await card(page, 'negotiation', other.title).getByRole('button', { name: 'Move to' }).click();
    await page.getByRole('menu', { name: 'Move to' }).getByRole('menuitem', { name: 'Lost' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: `Mark ${other.title} as lost?` }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Mark as lost');
    await page.keyboard.press('Enter');
    await card(page, 'lost', other.title).waitFor();
    await expect.poll(async () => (await suite.api.get(`/v1/deals/${other.id}`)).body).toMatchObject({ stage: 'lost', lost_reason: null });
    await expect.poll(() => page.evaluate<string>("document.activeElement?.closest('[data-deal]')?.getAttribute('data-deal') ?? ''")).toBe(other.id);
    await page.context().close();
  });

  it('refuses an invalid move with the API message, puts the card back and changes nothing', async () => {
    const deal = await newDeal('Jacquard loom cards', 'won');
    const before = await eventsOf(deal.id, 'deal.updated,deal.won,deal.lost');
    const page = await board();
    await card(page, 'won', deal.title).dragTo(column(page, 'lost'));
    // The API's own words (409 invalid_transition): a won deal must be reopened first.
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'The deal is won; reopen it first' }).waitFor();
    expect(await alert.textContent()).toContain(`${deal.title} was not moved to Lost`);
    await card(page, 'won', deal.title).waitFor();
    expect(await card(page, 'lost', deal.title).count()).toBe(0);
    const after = (await suite.api.get(`/v1/deals/${deal.id}`)).body;
    expect(after).toMatchObject({ stage: 'won', lost_at: null });
    expect(await eventsOf(deal.id, 'deal.updated,deal.won,deal.lost')).toEqual(before);
    await page.context().close();
  });

  it('says a card is still moving until the API answers, and it cannot be moved again meanwhile', async () => {
    const deal = await newDeal('Jacquard loom', 'lead_in');
    const page = await board();
    // A slow network: the move's PATCH waits until the test lets it through.
    let letThrough!: () => void;
    const held = new Promise<void>((resolve) => (letThrough = resolve));
    await page.route(`**/v1/deals/${deal.id}`, async (route) => {
      if (route.request().method() === 'PATCH') await held;
      await route.continue();
    });
    const before = await apiCounts();
    expect(await shownCounts(page)).toEqual(before);
    await card(page, 'lead_in', deal.title).dragTo(column(page, 'qualified'));
    const moving = card(page, 'qualified', deal.title);
    const button = moving.getByRole('button', { name: 'Moving…' });
    await button.waitFor();
    // The heads count the card where it is going at once, though the API has not moved it yet.
    expect(await shownCounts(page)).toEqual(await apiCounts({ lead_in: -1, qualified: 1 }));
    expect(await button.isDisabled()).toBe(true);
    expect(await moving.getAttribute('draggable')).toBe('false');
    await page
      .getByRole('status')
      .filter({ hasText: `Moving ${deal.title} to Qualified…` })
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]); // the busy card's text keeps its contrast
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'board-moving.png') });
    expect((await suite.api.get(`/v1/deals/${deal.id}`)).body.stage).toBe('lead_in'); // the API was not asked yet

    letThrough();
    await moving.getByRole('button', { name: 'Move to' }).waitFor();
    expect(await moving.getAttribute('draggable')).toBe('true');
    await page
      .getByRole('status')
      .filter({ hasText: `Moved ${deal.title} to Qualified.` })
      .waitFor();
    expect((await suite.api.get(`/v1/deals/${deal.id}`)).body.stage).toBe('qualified');
    expect(await shownCounts(page)).toEqual(await apiCounts()); // the API's heads now, counted once
    await page.context().close();
  });
});

describe('columns', () => {
  it("shows each stage's count and value per currency, exactly the API's deals summed per currency", async () => {
    // Amounts whose float sum is not exact (0.1 + 0.2), and three currencies in one column.
    await newDeal('Tenth', 'lead_in', { value: 0.1, currency: 'EUR' });
    await newDeal('Fifth', 'lead_in', { value: 0.2, currency: 'EUR' });
    await newDeal('Yen side', 'lead_in', { value: 2717000, currency: 'JPY' });
    await newDeal('Dinar side', 'lead_in', { value: 1.234, currency: 'KWD' });
    const deals: Deal[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { data: Deal[]; next_cursor: string | null } } = await suite.api.get(`/v1/deals?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
      deals.push(...res.body.data);
      cursor = res.body.next_cursor;
    } while (cursor);

    const page = await board();
    for (const stage of Object.keys(STAGE_NAMES)) {
      const inStage = deals.filter((d) => d.stage === stage);
      const minor = new Map<string, number>();
      for (const d of inStage) minor.set(d.currency, (minor.get(d.currency) ?? 0) + Math.round(d.value * 10 ** minorDigits(d.currency)));
      const expected = [...minor.keys()].sort().map((c) => formatMoney(minor.get(c)! / 10 ** minorDigits(c), c, 'en-US'));
      const col = column(page, stage);
      expect(await col.locator('.column-count').textContent(), stage).toBe(`${inStage.length} deals`);
      const shown = inStage.length
        ? await col
            .getByRole('list', { name: `Value of ${STAGE_NAMES[stage]}` })
            .getByRole('listitem')
            .allTextContents()
        : [];
      expect(shown, stage).toEqual(expected);
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it("draws the first 15 cards of a column, the API's next page on Show more, and more as the column is scrolled", async () => {
    const before = (await suite.api.get('/v1/deals/summary')).body.stages.find((s: { stage: string }) => s.stage === 'negotiation').count as number;
    const records = Array.from({ length: 60 }, (_, i) => ({ title: `Bulk card ${i}`, value: 1, currency: 'USD', stage: 'negotiation' }));
    expect((await suite.api.post('/v1/deals/bulk', { mode: 'create', records })).status).toBe(200);
    const total = before + 60;
    const newest = (await suite.api.get('/v1/deals?stage=negotiation&sort=updated_at&order=desc&limit=1000')).body.data.map((d: Deal) => d.title);
    expect(newest).toHaveLength(total);
    const page = await suite.signedIn();
    const asked: string[] = [];
    const askedClients: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      // The board's own requests: the Overview, where signing in lands, asks for its counts too.
      if (!r.frame().url().includes('view=board')) return;
      if (url.pathname.startsWith('/v1/deals')) asked.push(url.search);
      if (url.pathname === '/v1/clients') askedClients.push(url.searchParams.get('ids') ?? '(every client)');
    });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/deals?view=board`);
    const list = column(page, 'negotiation').getByRole('list', { name: 'Negotiation', exact: true });
    const cards = list.getByRole('listitem');
    await expect.poll(() => cards.count()).toBe(15);
    expect(await column(page, 'negotiation').locator('.column-count').textContent()).toBe(countText(total));
    // The board asked for the heads and a page of 15 per column, not for every deal.
    expect(asked.filter((q) => q.includes('stage=')).every((q) => q.includes('limit=15'))).toBe(true);
    expect(asked.some((q) => q.includes('limit=1000'))).toBe(false);
    expect(await cards.locator('.deal-title').allTextContents()).toEqual(newest.slice(0, 15));
    // The clients' names: asked for by the ids on the cards, in one request, not as the list of every client.
    expect(askedClients).toHaveLength(1);
    const firstPages = await Promise.all(
      Object.keys(STAGE_NAMES).map(async (stage) => (await suite.api.get(`/v1/deals?stage=${stage}&sort=updated_at&order=desc&limit=15`)).body.data as Deal[]),
    );
    const withClient = firstPages.flat().filter((d) => d.client_id);
    expect(new Set(askedClients[0]!.split(','))).toEqual(new Set(withClient.map((d) => d.client_id)));
    const shown = withClient[0]!;
    const clientName = (await suite.api.get(`/v1/clients/${shown.client_id}`)).body.name as string;
    expect(await card(page, shown.stage, shown.title).locator('.deal-client').textContent()).toBe(clientName);

    await column(page, 'negotiation').getByRole('button', { name: `Show 15 more in Negotiation` }).click();
    await expect.poll(() => cards.count()).toBe(30);
    expect(await cards.locator('.deal-title').allTextContents()).toEqual(newest.slice(0, 30)); // the API's next page, in order
    expect(asked.filter((q) => q.includes('cursor='))).toHaveLength(1);

    // Scrolled to its end, the column asks for its next page by itself.
    await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect.poll(() => cards.count()).toBe(45);
    await new Promise((resolve) => setTimeout(resolve, 500)); // and no further: the next page waits for the next scroll
    expect(await cards.count()).toBe(45);
    expect(await cards.locator('.deal-title').allTextContents()).toEqual(newest.slice(0, 45));
    expect(asked.filter((q) => q.includes('cursor='))).toHaveLength(2);
    await page.context().close();
  });
});

describe('live', () => {
  it('moves, adds and removes cards as deal events arrive from elsewhere', async () => {
    const moved = await newDeal('Moved elsewhere', 'lead_in');
    const gone = await newDeal('Deleted elsewhere', 'proposal');
    const page = await board();
    await card(page, 'lead_in', moved.title).waitFor();
    expect((await suite.api.patch(`/v1/deals/${moved.id}`, { stage: 'negotiation' })).status).toBe(200);
    await card(page, 'negotiation', moved.title).waitFor();
    expect(await card(page, 'lead_in', moved.title).count()).toBe(0);
    const added = await newDeal('Made elsewhere', 'qualified');
    await card(page, 'qualified', added.title).waitFor();
    expect((await suite.api.delete(`/v1/deals/${gone.id}`)).status).toBe(200);
    await expect.poll(() => card(page, 'proposal', gone.title).count()).toBe(0);
    // The heads follow too: each column's count is the API's after the three changes.
    const counts = await apiCounts();
    await expect.poll(() => shownCounts(page)).toEqual(counts);
    await page.context().close();
  });

  it('takes a bulk import while open: the heads follow, a column still draws a page, the newest first', async () => {
    const page = await board();
    const lost = column(page, 'lost').getByRole('list', { name: 'Lost', exact: true }).getByRole('listitem');
    await expect.poll(() => lost.count()).toBeGreaterThan(0);
    const records = Array.from({ length: 400 }, (_, i) => ({ title: `Imported ${String(i).padStart(3, '0')}`, value: 2, currency: 'EUR', stage: 'lost' }));
    expect((await suite.api.post('/v1/deals/bulk', { mode: 'create', records })).status).toBe(200);
    const counts = await apiCounts();
    await expect.poll(() => shownCounts(page)).toEqual(counts);
    await expect.poll(() => column(page, 'lost').getByRole('link', { name: 'Imported 399', exact: true }).count()).toBe(1);
    expect(await lost.count()).toBe(15); // 400 new cards, 15 drawn; the rest wait for "Show more"
    await column(page, 'lost').getByRole('button', { name: 'Show 15 more in Lost' }).click();
    expect(await lost.count()).toBe(30);
    await page.context().close();
  });
});
