import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations, useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * The record lists (docs/dashboard.md#pages, docs/reference/basics.md#lists-and-pagination): newest first by default, sortable where the API sorts,
 * the order and the search kept in the URL, and the Logs page newest first in its real default
 * window. Each table is compared with what the API answers for the same query.
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

/** The first column's text of each row (the record's name). */
const names = (table: Locator) => table.locator('tbody tr td:first-child').allTextContents();

async function openList(page: Page, path: string, caption: string | RegExp): Promise<Locator> {
  await page.goto(`${suite.sandbox.baseUrl}/dashboard/${path}`);
  const table = page.getByRole('table', { name: caption });
  await table.locator('tbody tr').first().waitFor();
  return table;
}

describe('record lists', () => {
  it('show the newest record first, without a filter', async () => {
    const lead = (await suite.api.post('/v1/leads', { first_name: 'Newest', last_name: 'Lead', email: 'newest.lead@example.com' })).body;
    const page = await suite.signedIn();
    const table = await openList(page, 'leads', 'Leads, newest first');
    expect((await names(table))[0]).toBe('Newest Lead');
    await table.getByRole('link', { name: 'Newest Lead' }).click();
    await page.waitForURL(`**/dashboard/leads/${lead.id}`);
    await page.context().close();
  });

  it('sort by a column on a click, the other way on a second click, in the order the API gives, and keep it in the URL', async () => {
    const page = await suite.signedIn();
    await openList(page, 'clients', 'Clients, newest first');
    // The table's name (its caption) changes with the order: find it as the page's one table.
    const table = page.getByRole('table');
    const header = table.getByRole('columnheader', { name: 'Name' });
    expect(await header.getAttribute('aria-sort')).toBeNull();

    await header.getByRole('button').click();
    await page.getByRole('table', { name: 'Clients, by name, ascending' }).waitFor();
    expect(new URL(page.url()).searchParams.get('sort')).toBe('name');
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    const ascending = (await suite.api.get('/v1/clients?sort=name&order=asc&limit=25')).body.data.map((c: { name: string }) => c.name);
    await expect.poll(() => names(table)).toEqual(ascending);

    await header.getByRole('button').click();
    await page.getByRole('table', { name: 'Clients, by name, descending' }).waitFor();
    const descending = (await suite.api.get('/v1/clients?sort=name&order=desc&limit=25')).body.data.map((c: { name: string }) => c.name);
    await expect.poll(() => names(table)).toEqual(descending);
    expect(descending).not.toEqual(ascending);

    // A reload (or a shared link) lands on the same order.
    await page.reload();
    await page.getByRole('table', { name: 'Clients, by name, descending' }).locator('tbody tr').first().waitFor();
    expect(await names(page.getByRole('table', { name: 'Clients, by name, descending' }))).toEqual(descending);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('search deals and invoices with q, as the API does, and keep the words in the URL', async () => {
    const client = (await suite.api.post('/v1/clients', { name: 'Zephyrine Holdings', email: 'zephyrine@example.com' })).body;
    await suite.api.post('/v1/deals', { title: 'Quokka renewal', value: 5000, currency: 'EUR', stage: 'lead_in', client_id: client.id });
    const page = await suite.signedIn();
    await openList(page, 'deals', 'Deals, newest first');
    await page.getByLabel('Search').fill('quokka');
    await page.getByLabel('Search').press('Enter');
    await page.waitForURL(/[?&]q=quokka/);
    const deals = page.getByRole('table', { name: 'Deals, newest first' });
    await expect.poll(() => names(deals)).toEqual(['Quokka renewal']);

    // Invoices are found by their client's name.
    const invoice = await suite.api.post('/v1/invoices', {
      client_id: client.id,
      currency: 'EUR',
      line_items: [{ description: 'Support', quantity: 1, unit_price: 1200 }],
    });
    expect(invoice.status, invoice.text).toBe(201);
    await openList(page, 'invoices?q=zephyrine', 'Invoices, newest first');
    const found = (await suite.api.get('/v1/invoices?q=zephyrine&order=desc')).body.data.map((i: { number: string }) => i.number);
    expect(found.length).toBe(1);
    await expect.poll(() => names(page.getByRole('table', { name: 'Invoices, newest first' }))).toEqual(found);
    await page.context().close();
  });
});

describe('logs', () => {
  it('are newest first, and the Since filter shows the window in use (the last hour) until another is picked', async () => {
    const page = await suite.signedIn();
    // Dozens of an app's requests in this hour (the page hides the dashboard's own by default): oldest
    // first, the last one would not be on the first page.
    for (let i = 0; i < 30; i++) expect((await suite.api.get('/v1/leads?limit=1')).status).toBe(200);
    expect((await suite.api.get('/v1/leads/lead_logsnewest')).status).toBe(404);
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/logs`);
    const since = page.getByLabel('Since');
    expect(await since.locator('option:checked').textContent()).toBe('Last hour');
    const table = page.getByRole('table', { name: 'Requests to /v1, newest first' });
    await table.getByRole('button', { name: 'GET /v1/leads/lead_logsnewest' }).waitFor();
    const times = await table.locator('tbody time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')!));
    expect(times.length).toBeGreaterThan(10);
    expect(times).toEqual([...times].sort().reverse());
    await since.selectOption({ label: 'Last 5 minutes' });
    await page.waitForURL(/since=5m/);
    expect(await since.locator('option:checked').textContent()).toBe('Last 5 minutes');
    await page.context().close();
  });
});
