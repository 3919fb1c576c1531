import { readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';
import { apiClient, startSandboxProcess, type ApiClient, type RunningSandbox } from '../helpers/sandbox.js';
import { ARTEFACTS, accessibilityProblems, forbidDialogs, launch, screenshot } from './browser.js';

/**
 * The dashboard in a real browser against a real `crm sandbox start` (API.md §11): signing in from
 * the printed link, the pages a user reaches for first, and what an attacker would try.
 */
let sandbox: RunningSandbox;
let api: ApiClient;
let browser: Browser;
let dashboardUrl: string;
const dialogs: string[] = [];
const XSS = ['<img src=x onerror=alert(1)>', '"><script>alert(2)</script>'];
const XSS_EMAIL = 'xss@attacker.example';

beforeAll(async () => {
  sandbox = await startSandboxProcess([]);
  api = apiClient(sandbox);
  browser = await launch();
  for (const name of XSS) expect((await api.post('/v1/leads', { first_name: name, company: name, email: XSS_EMAIL })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

/** The page has drawn its data: the counts are in, a table's rows are in (the events page never idles: its stream stays open). */
async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).waitFor();
  if ((await page.locator('main .counts').count()) > 0) await expect.poll(() => page.locator('main .counts').textContent()).not.toContain('…');
  if ((await page.locator('main table').count()) > 0) await page.locator('main tbody tr').first().waitFor();
}

/** A fresh sign-in link, as `crm dashboard` prints it. */
async function freshLink(): Promise<string> {
  const run = await runCrm(['dashboard', '--json', '--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey]);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { url: string }).url;
}

async function signedIn(colorScheme: 'light' | 'dark' = 'light'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ colorScheme, viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  forbidDialogs(page, dialogs);
  await page.goto(await freshLink());
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return { context, page };
}

describe('signing in', () => {
  it('the printed link signs in once, drops the token from the address bar, survives a reload; sign out ends it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const link = await freshLink();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect(page.url()).toBe(`${sandbox.baseUrl}/dashboard/`);
    await page.reload();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const cookies = await context.cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([['crm_session', true, 'Strict']]);
    expect(await page.evaluate('document.cookie')).toBe(''); // HttpOnly: no script can read it
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the crm sandbox' }).waitFor();

    const again = await context.newPage();
    await again.goto(link); // used already
    await again.getByRole('heading', { name: 'Sign in to the crm sandbox' }).waitFor();
    await context.close();
  });

  it('signs in by pasting an API key, and shows only what its scopes allow', async () => {
    const key = (await api.post('/v1/api_keys', { name: 'leads reader', scopes: ['leads:read'] })).body.secret as string;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${sandbox.baseUrl}/dashboard/`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const links = await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').allTextContents();
    expect(links).toEqual(['Overview', 'Leads']);
    await context.close();
  });
});

describe('pages', () => {
  it('API keys: a new key with a scope matrix shows its secret once; revoked, it fails on its next request', async () => {
    const { context, page } = await signedIn();
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('browser made');
    await page.getByRole('combobox', { name: 'leads' }).selectOption('write');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByRole('status', { name: 'New API key' }).locator('code').textContent())!;
    expect(secret).toMatch(/^crm_test_/);
    expect((await api.get('/v1/leads?limit=1', { key: secret })).status).toBe(200);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).toBe('{}{}');
    await page.reload();
    const row = page.getByRole('row', { name: /browser made/ });
    await expect.poll(() => row.textContent()).toContain(`${secret.slice(0, 12)}`.slice(0, 9));
    expect(await page.content()).not.toContain(secret);
    await row.getByRole('button', { name: 'Revoke browser made' }).click();
    await row.getByRole('button', { name: /^Yes, revoke browser made/ }).click();
    await expect.poll(() => row.textContent()).toContain('revoked');
    expect((await api.get('/v1/leads?limit=1', { key: secret })).status).toBe(401);
    await context.close();
  });

  it('Events: new events appear live without a reload; the type filter is kept in the URL', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${sandbox.baseUrl}/dashboard/events?type=lead.created`);
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    const lead = (await api.post('/v1/leads', { first_name: 'Live tail' })).body as { id: string };
    const other = (await api.post('/v1/clients', { name: 'Not shown' })).body as { id: string };
    const first = page.getByRole('row').nth(1);
    await expect.poll(() => first.textContent(), { timeout: 10_000 }).toContain('lead.created');
    await first.getByRole('button').click();
    await expect.poll(() => page.getByRole('region', { name: 'Event detail' }).textContent()).toContain(lead.id);
    expect(other.id).toMatch(/^cli_/);
    expect(await page.getByRole('table').textContent()).not.toContain('client.created');
    await page.reload();
    expect(await page.getByRole('searchbox', { name: 'Type' }).inputValue()).toBe('lead.created');
    await context.close();
  });

  it('renders API data as text on every page (XSS): no dialog fires, the names show literally', async () => {
    const { context, page } = await signedIn();
    for (const path of [`/dashboard/leads?email=${XSS_EMAIL}`, '/dashboard/events', '/dashboard/']) {
      await page.goto(`${sandbox.baseUrl}${path}`);
      await page.getByRole('main').waitFor();
      await settled(page);
      if (path.startsWith('/dashboard/leads')) {
        for (const name of XSS) await page.getByRole('cell', { name, exact: true }).first().waitFor();
        await page.getByRole('button', { name: XSS[0] }).click();
        expect(await page.getByRole('region', { name: 'Lead detail' }).textContent()).toContain(XSS[0]);
      }
      expect(await page.locator('main img, main script').count()).toBe(0);
    }
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it('every page: no serious or critical accessibility problem (axe), screenshots light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await signedIn(scheme);
      for (const [name, path] of [['overview', '/dashboard/'], ['leads', '/dashboard/leads'], ['api-keys', '/dashboard/api-keys'], ['events', '/dashboard/events']]) {
        await page.goto(`${sandbox.baseUrl}${path}`);
        await settled(page);
        expect(await accessibilityProblems(page), `${name} (${scheme})`).toEqual([]);
        await screenshot(page, `${name}-${scheme}`);
      }
      await context.close();
    }
    expect(readdirSync(ARTEFACTS).filter((f) => f.endsWith('.png')).length).toBeGreaterThanOrEqual(8);
  }, 120_000);
});

describe('an attacker', () => {
  it("on another site's page can neither read nor write with the victim's session", async () => {
    const { context, page } = await signedIn();
    const before = (await api.get('/v1/leads?limit=1000')).body.data.length as number;
    // The attacker's page: another origin (localhost is a different site from 127.0.0.1).
    const evil = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>evil</title>'));
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      await page.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`);
      const outcome = await page.evaluate(async (target) => {
        const results: string[] = [];
        try {
          const r = await fetch(`${target}/v1/leads`, { credentials: 'include', headers: { 'x-crm-dashboard': '1' } });
          results.push(`read ${r.status}`);
        } catch {
          results.push('read blocked');
        }
        // A write the browser sends without asking (no-cors, a "simple" request): it must change nothing.
        await fetch(`${target}/v1/leads`, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{"first_name":"csrf"}' }).catch(() => undefined);
        return results;
      }, sandbox.baseUrl);
      expect(outcome).toEqual(['read blocked']);
    } finally {
      evil.close();
    }
    const after = (await api.get('/v1/leads?limit=1000')).body.data as { first_name: string }[];
    expect(after).toHaveLength(before);
    expect(after.map((l) => l.first_name)).not.toContain('csrf');
    await context.close();
  });
});
