import { describe, expect, it } from 'vitest';
import { useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * The Deals list under a README's rate limit (docs/dashboard.md#pages): with a request per client, 12 of its 27
 * requests were refused (429) and their rows read "Not found (cli_…)". Now the names come in one
 * request, and one refused is asked again after Retry-After: every row gets its client's name.
 */
let suite: BrowserSuite;
useBrowser(['--rate-limit', '10/1s'], (s) => (suite = s));

describe('the Deals list under --rate-limit 10/1s', () => {
  it('shows every client name, and no row reads "Not found"', async () => {
    // The names the API gives (asked for slowly enough for the limit: one list, one ?ids=).
    const deals = (await suite.api.get('/v1/deals?order=desc&limit=25')).body.data as { client_id: string | null }[];
    const ids = [...new Set(deals.flatMap((d) => (d.client_id ? [d.client_id] : [])))];
    expect(ids.length).toBeGreaterThan(10); // more clients than the limit lets through in a second, one by one
    const clients = (await suite.api.get(`/v1/clients?ids=${ids.join(',')}&limit=100`)).body.data as { id: string; name: string }[];
    const names = new Map(clients.map((c) => [c.id, c.name]));
    const expected = deals.map((d) => (d.client_id ? names.get(d.client_id)! : '—'));

    const page = await suite.signedIn();
    const seen = new Set<string>(); // every text a Client cell showed, while the page loaded
    await page.exposeFunction('reportCell', (text: string) => void seen.add(text));
    await page.addInitScript({
      content: `new MutationObserver(() => {
        for (const cell of document.querySelectorAll('tbody tr td:nth-child(2)')) window.reportCell(cell.textContent);
      }).observe(document, { subtree: true, childList: true, characterData: true });`,
    });
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/deals`);
    const cells = page.getByRole('table', { name: 'Deals, newest first' }).locator('tbody tr td:nth-child(2)');
    await expect.poll(() => cells.allTextContents(), { timeout: 30_000 }).toEqual(expected);
    await expect.poll(() => seen.has(expected[0]!)).toBe(true); // the watch saw the cells (it is not blind)
    expect([...seen].filter((t) => /Not found|Couldn't load/.test(t))).toEqual([]);
    await page.context().close();
  }, 60_000);
});
