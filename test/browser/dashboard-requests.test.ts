import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations, useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * "Hide dashboard requests" on the Logs and Usage pages (docs/dashboard.md#the-request-log): the dashboard's own requests
 * are logged and counted with source "dashboard"; the pages leave them out by default, through
 * the API's filter, and show them, marked, when the box is unticked. The test's own requests (with
 * the admin key) are "api". Nothing here asks GET /v1/request_logs with a key: in the usage counts,
 * that endpoint is the dashboard's alone.
 */
let suite: BrowserSuite;
useBrowser(['--no-seed'], (s) => (suite = s));

/** The URLs (path and query) of the page's requests to `prefix` from now on. */
function requestsTo(page: Page, prefix: string): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith(prefix)) seen.push(`${url.pathname}${url.search}`);
  });
  return seen;
}

const checkbox = (page: Page) => page.getByRole('checkbox', { name: 'Hide dashboard requests' });

describe('Hide dashboard requests', () => {
  it('on Logs: ticked by default, asks for source=api and lists no dashboard request; unticked, lists them marked', async () => {
    expect((await suite.api.get('/v1/leads/lead_app_probe')).status).toBe(404); // an app's request (the dashboard lists leads too)
    const page = await suite.signedIn();
    const asked = requestsTo(page, '/v1/request_logs');
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/logs`);
    const table = page.getByRole('table', { name: 'Requests to /v1, newest first' });
    await table.getByRole('row').filter({ hasText: 'GET /v1/leads/lead_app_probe' }).waitFor();
    expect(await checkbox(page).isChecked()).toBe(true);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((q) => new URLSearchParams(q.split('?')[1]).get('source') === 'api')).toBe(true);
    expect(await table.getByText('Dashboard', { exact: true }).count()).toBe(0);
    expect(await table.getByRole('row').filter({ hasText: 'GET /v1/request_logs' }).count()).toBe(0); // the page's own list request
    expect(await seriousAxeViolations(page)).toEqual([]);

    asked.length = 0;
    await checkbox(page).uncheck();
    // The dashboard's own requests (this page's list of the log, among them), each marked.
    const own = table.getByRole('row').filter({ hasText: 'GET /v1/request_logs' }).first();
    await own.waitFor();
    expect(await own.getByText('Dashboard', { exact: true }).count()).toBe(1);
    expect(await table.getByRole('row').filter({ hasText: 'GET /v1/leads/lead_app_probe' }).getByText('Dashboard', { exact: true }).count()).toBe(0);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((q) => !new URLSearchParams(q.split('?')[1]).has('source'))).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The choice is remembered in this browser.
    await page.reload();
    await table.getByRole('row').filter({ hasText: 'GET /v1/request_logs' }).first().waitFor();
    expect(await checkbox(page).isChecked()).toBe(false);
    await page.context().close();
  }, 60_000);

  it('on Usage: ticked by default, the live report leaves the dashboard out (usage_source=api); unticked, counts it', async () => {
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/logs`); // the dashboard lists the log: GET /v1/request_logs, the dashboard's alone
    await page.getByRole('table', { name: 'Requests to /v1, newest first' }).locator('tbody tr').first().waitFor();
    const streams = requestsTo(page, '/dashboard/stream');
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/usage`);
    const byEndpoint = page.getByRole('table', { name: 'Today by endpoint' });
    await byEndpoint.waitFor();
    expect(await checkbox(page).isChecked()).toBe(true);
    expect(streams).toEqual(['/dashboard/stream?usage_source=api']);
    await page.getByText(/requests today, not counting the dashboard’s own/).waitFor();
    expect(await byEndpoint.getByRole('rowheader', { name: 'GET /v1/request_logs' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await checkbox(page).uncheck();
    await byEndpoint.getByRole('rowheader', { name: 'GET /v1/request_logs' }).waitFor();
    expect(streams.at(-1)).toBe('/dashboard/stream');
    expect(await page.getByText(/not counting the dashboard’s own/).count()).toBe(0);
    await checkbox(page).check();
    await page.getByText(/not counting the dashboard’s own/).waitFor();
    expect(streams.at(-1)).toBe('/dashboard/stream?usage_source=api');
    expect(await byEndpoint.getByRole('rowheader', { name: 'GET /v1/request_logs' }).count()).toBe(0);
    await page.context().close();
  }, 60_000);
});
