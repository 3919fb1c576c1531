import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startSandboxProcess, apiClient, type ApiClient, type RunningSandbox } from './sandbox.js';

/**
 * Browser tests drive Debian's Chromium (`apt-get install chromium`) through playwright-core,
 * against a real `bin/crm sandbox start` process. Override the path with CRM_CHROMIUM.
 */
const CHROMIUM = process.env.CRM_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: ARGS });

export interface BrowserSuite {
  sandbox: RunningSandbox;
  api: ApiClient;
  browser: Browser;
  /** A fresh browser profile (no cookies), light or dark. */
  context(colorScheme?: 'light' | 'dark'): Promise<BrowserContext>;
  /** A fresh single-use sign-in link (POST /_sandbox/dashboard_logins). */
  loginUrl(): Promise<string>;
  /** A page of a fresh profile, signed in through a sign-in link; fails the test on any dialog. */
  signedIn(colorScheme?: 'light' | 'dark'): Promise<Page>;
}

/**
 * One sandbox and one Chromium per test file. `env()`, read when the sandbox starts (after the
 * file's earlier beforeAll hooks), adds to its environment: CRM_ASSISTANT_URL of a fake provider.
 */
export function useBrowser(args: string[], ready: (suite: BrowserSuite) => void, env: () => NodeJS.ProcessEnv = () => ({})): void {
  let sandbox: RunningSandbox | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [sandbox, browser] = await Promise.all([startSandboxProcess(args, { env: env() }), launchChromium()]);
    const api = apiClient(sandbox);
    const s = sandbox;
    const b = browser;
    const suite: BrowserSuite = {
      sandbox: s,
      api,
      browser: b,
      context: (colorScheme = 'light') => b.newContext({ colorScheme, viewport: { width: 1280, height: 800 } }),
      async loginUrl() {
        const res = await api.post('/_sandbox/dashboard_logins');
        if (res.status !== 201) throw new Error(`login link: ${res.status} ${res.text}`);
        return res.body.url as string;
      },
      async signedIn(colorScheme = 'light') {
        const context = await suite.context(colorScheme);
        const page = await context.newPage();
        failOnDialog(page);
        await page.goto(await suite.loginUrl());
        await page.getByRole('link', { name: 'Overview' }).waitFor();
        return page;
      },
    };
    ready(suite);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.stop();
  });
}

/** A dialog (alert, confirm) would mean injected script ran: record it so the test can fail. */
export const dialogs = new WeakMap<Page, string[]>();
function failOnDialog(page: Page): void {
  const seen: string[] = [];
  dialogs.set(page, seen);
  page.on('dialog', (dialog) => {
    seen.push(dialog.message());
    void dialog.dismiss();
  });
}

/** The page's serious and critical accessibility violations (axe-core), as "rule: selectors" lines; [] when clean. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const { AxeBuilder } = await import('@axe-core/playwright');
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
