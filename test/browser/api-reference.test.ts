import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/dashboard.js';
import { useBrowser, type BrowserSuite } from '../helpers/browser.js';

/** `/docs` (docs/dashboard.md#the-api-reference-docs): the interactive API reference, from memory, under the dashboard's CSP, in a real Chromium. */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

/** Console errors, which is where Chromium reports what the CSP refused. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

async function tryListLeads(page: Page) {
  // A deep link opens the operation (#/{tag}/{operationId}).
  await page.goto(`${suite.sandbox.baseUrl}/docs#/Leads/leads.list`);
  const operation = page.locator('.opblock.is-open').filter({ has: page.locator('[data-path="/v1/leads"]') });
  await operation.getByRole('button', { name: 'Execute' }).click();
  const status = operation.locator('.live-responses-table tbody .response-col_status').first();
  await status.waitFor();
  return { status: (await status.textContent())!.trim(), body: (await operation.locator('.live-responses-table .microlight').first().textContent())! };
}

describe('/docs', () => {
  it('renders every tag of the OpenAPI document with nothing refused by the CSP and nothing from the network', async () => {
    const page = await (await suite.context()).newPage();
    const errors = consoleErrors(page);
    const foreign: string[] = [];
    page.on('request', (r) => !r.url().startsWith(suite.sandbox.baseUrl) && !r.url().startsWith('data:') && foreign.push(r.url()));
    await page.goto(`${suite.sandbox.baseUrl}/docs`);
    await page.getByRole('heading', { name: /crm API/ }).waitFor();
    const doc = (await suite.api.get('/v1/openapi.json')).body as { tags: { name: string }[] };
    for (const tag of doc.tags) await page.locator(`#operations-tag-${tag.name.replace(/ /g, '_')}`).waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(50);
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
    await page.context().close();
  });

  // Two tests, not one: each renders the whole reference, which took 22 s of a 30 s budget on a loaded CI machine.
  it('"Try it out" answers with the dashboard session and writes nothing to web storage', async () => {
    const signedIn = await suite.signedIn();
    const ok = await tryListLeads(signedIn);
    expect(ok.status).toBe('200');
    expect(JSON.parse(ok.body).data.length).toBeGreaterThan(0);
    // Nothing about the session or a key was written to web storage.
    expect(await signedIn.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
    await signedIn.context().close();
  });

  it('"Try it out" answers 401 without a session', async () => {
    const anonymous = await (await suite.context()).newPage();
    const refused = await tryListLeads(anonymous);
    expect(refused.status).toBe('401');
    await anonymous.context().close();
  });

  it('is served with the dashboard headers, and an unknown file is a 404 problem', async () => {
    const html = await rawRequest(suite.sandbox.baseUrl, 'GET', '/docs');
    expect(html.status).toBe(200);
    expect(html.headers['content-security-policy']).toContain("script-src 'self'");
    expect(html.headers['x-content-type-options']).toBe('nosniff');
    expect(html.body).not.toMatch(/<script>|style=/);
    const bundle = await rawRequest(suite.sandbox.baseUrl, 'GET', '/docs/assets/swagger-ui-bundle.js');
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const missing = await rawRequest(suite.sandbox.baseUrl, 'GET', '/docs/assets/..%2Fapp.js');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
