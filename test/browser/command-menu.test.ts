import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations, useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * The command menu (docs/dashboard.md#the-command-menu): Ctrl+K opens a search over records (the API's `q` on leads,
 * clients, deals and invoices) and pages; arrow keys move, Enter opens, Escape closes and gives the
 * focus back. Keyboard only, except where the mouse's way in (the Search button) is the point.
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

const SHOTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'screenshots');

const menu = (page: Page) => page.getByRole('dialog', { name: 'Search records and pages' });
const input = (page: Page) => menu(page).getByRole('combobox', { name: 'Search records and pages' });
/** The text of the option the input points at (aria-activedescendant). */
const activeOption = (page: Page) =>
  page.evaluate<string | null>(`(() => {
    const id = document.activeElement?.getAttribute('aria-activedescendant');
    const option = id ? document.getElementById(id) : null;
    return option?.getAttribute('aria-selected') === 'true' ? option.textContent : null;
  })()`);

describe('command menu', () => {
  it('"new lead" then Enter opens the New lead form; the lead it creates is in the API; Escape leaves no ?new=1', async () => {
    const page = await suite.signedIn();
    await page.keyboard.press('Control+k');
    await menu(page).waitFor();
    await page.keyboard.type('new lead');
    await menu(page).getByRole('group', { name: 'Actions' }).getByRole('option', { name: 'New lead' }).waitFor();
    await expect.poll(() => activeOption(page)).toBe('New lead');
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'New lead' });
    await form.waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/leads');
    await form.getByLabel('First name', { exact: true }).fill('Grace');
    await form.getByLabel('Email', { exact: true }).fill('grace@cobol.example');
    await form.getByRole('button', { name: 'Create lead' }).click();
    await page.getByRole('heading', { name: 'Grace', level: 1 }).waitFor();
    const found = (await suite.api.get('/v1/leads?email=grace@cobol.example')).body.data;
    expect(found).toHaveLength(1);
    expect(page.url()).toContain(`/dashboard/leads/${found[0].id}`);

    // The link the action opens is a page of its own; closing the form drops ?new=1, so a reload shows the list.
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/deals?new=1`);
    await page.getByRole('dialog', { name: 'New deal' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'New deal' }).waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
    await page.reload();
    await page.getByRole('heading', { name: 'Deals', level: 1 }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.context().close();
  });

  it('Ctrl+K finds a client by name and Enter opens its record page', async () => {
    const client = (await suite.api.post('/v1/clients', { name: 'Quartzite Looms Ltd', email: 'ada@quartzite.example' })).body;
    const page = await suite.signedIn();
    await page.keyboard.press('Control+k');
    await menu(page).waitFor();
    // The focus is in the search box at once: typing right after the shortcut lands there.
    await page.keyboard.type('quartz');
    expect(await input(page).inputValue()).toBe('quartz');
    const option = menu(page)
      .getByRole('group', { name: 'Clients' })
      .getByRole('option', { name: /Quartzite Looms Ltd/ });
    await option.waitFor();
    // No page is named like that: the client is the first result, and the one Enter opens.
    await expect.poll(() => activeOption(page)).toMatch(/^Quartzite Looms Ltd/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'command-menu-light.png') });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Quartzite Looms Ltd', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/clients/${client.id}`);
    expect(await menu(page).count()).toBe(0);
    await page.context().close();
  });

  it('searches leads, deals and invoices too, and moves through the results with the arrow keys', async () => {
    const client = (await suite.api.post('/v1/clients', { name: 'Zuse Relay Works', email: 'konrad@zuse.example' })).body;
    await suite.api.post('/v1/leads', { first_name: 'Konrad', last_name: 'Zusetti', company: 'Relays GmbH' });
    const deal = (await suite.api.post('/v1/deals', { title: 'Zuse Z3 rebuild', value: 4200, currency: 'EUR', stage: 'proposal', client_id: client.id })).body;
    const invoice = (
      await suite.api.post('/v1/invoices', { client_id: client.id, currency: 'EUR', line_items: [{ description: 'Relays', quantity: 2, unit_price: 10 }] })
    ).body;
    const page = await suite.signedIn();
    await page.keyboard.press('Control+k');
    await menu(page).waitFor();
    await page.keyboard.type('zuse');
    for (const [group, name] of [
      ['Leads', 'Konrad Zusetti'],
      ['Clients', 'Zuse Relay Works'],
      ['Deals', 'Zuse Z3 rebuild'],
      ['Invoices', invoice.number],
    ]) {
      await menu(page)
        .getByRole('group', { name: group })
        .getByRole('option', { name: new RegExp(`^${name}`) })
        .waitFor();
    }
    // A deal says what it is worth and where it stands, in words.
    expect(
      await menu(page)
        .getByRole('option', { name: /^Zuse Z3 rebuild/ })
        .textContent(),
    ).toContain('€4,200.00 · Proposal');
    const order = await menu(page).getByRole('option').allTextContents();
    expect(await activeOption(page)).toBe(order[0]);
    await page.keyboard.press('ArrowDown');
    expect(await activeOption(page)).toBe(order[1]);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp'); // from the first, up wraps to the last
    expect(await activeOption(page)).toBe(order.at(-1));
    // Walk to the deal and open it.
    const target = order.findIndex((t) => t.startsWith('Zuse Z3 rebuild'));
    await page.keyboard.press('ArrowDown'); // from the last, down wraps to the first
    expect(await activeOption(page)).toBe(order[0]);
    for (let i = 0; i < target; i++) await page.keyboard.press('ArrowDown');
    expect(await activeOption(page)).toBe(order[target]);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Zuse Z3 rebuild', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/deals/${deal.id}`);
    await page.context().close();
  });

  it('finds pages by name; Escape closes and gives the focus back; the Search button opens it too', async () => {
    const page = await suite.signedIn();
    const leadsLink = page.getByRole('link', { name: 'Leads', exact: true });
    await leadsLink.focus();
    await page.keyboard.press('Control+k');
    await menu(page).waitFor();
    await page.keyboard.press('Escape');
    expect(await menu(page).count()).toBe(0);
    expect(await page.evaluate<string>("document.activeElement?.textContent ?? ''")).toBe('Leads');

    // For the mouse: a visible button that names its shortcut.
    const button = page.getByRole('button', { name: 'Search', exact: true });
    expect(await button.textContent()).toContain('Ctrl K');
    await button.click();
    await page.keyboard.type('api k');
    await expect.poll(() => activeOption(page)).toBe('API keys');
    // Dark mode changes only colours: the contrast rule is the one to run again.
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
    expect(dark.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'command-menu-dark.png') });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/api-keys');

    // Nothing found says so, in the live status line.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('qqqzzzxxnothing');
    await menu(page).getByRole('status').filter({ hasText: 'Nothing matches qqqzzzxxnothing.' }).waitFor();
    expect(await menu(page).getByRole('option').count()).toBe(0);
    await page.context().close();
  });
});
