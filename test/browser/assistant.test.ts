import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aClient, aDeal, anApiKey } from '../helpers/factories.js';
import { type FakeProvider, startFakeProvider } from '../helpers/fake-model-provider.js';
import { seriousAxeViolations, useBrowser, type BrowserSuite } from '../helpers/browser.js';
import { startSandboxProcess } from '../helpers/sandbox.js';
import { brokenWordsIn } from './measure-layout.js';

/**
 * The assistant panel (docs/dashboard.md#the-assistant) in Chromium, against a sandbox process whose
 * model provider is the scripted fake (test/helpers/fake-model-provider.ts: a real HTTP server
 * speaking OpenAI's protocol). What the panel did is checked through the API.
 */
const PROVIDER_KEY = 'sk-fake-browser-key';
let fake: FakeProvider;
let suite: BrowserSuite;

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: PROVIDER_KEY });
});
useBrowser(
  [],
  (s) => (suite = s),
  () => ({ CRM_ASSISTANT_URL: `${fake.url}/v1`, CRM_ASSISTANT_MODEL: 'fake-model', CRM_ASSISTANT_API_KEY: PROVIDER_KEY, CRM_ASSISTANT_TIMEOUT_MS: '5000' }),
);
afterAll(async () => {
  await fake?.close();
});

const ROOT = join(import.meta.dirname, '..', '..');
const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');

const panel = (page: Page) => page.getByRole('complementary', { name: 'Assistant' });
const input = (page: Page) => panel(page).getByRole('textbox', { name: 'Ask the assistant' });
const card = (page: Page, title: string) => panel(page).getByRole('group', { name: title });
const focused = (page: Page) =>
  page.evaluate<string>("document.activeElement?.textContent?.trim() || document.activeElement?.getAttribute('aria-label') || ''");
const liveText = (page: Page) => panel(page).locator('[aria-live="polite"]').textContent();
/** The id of the first record of `prefix` in the newest tool message the model was sent (what a tool answered). */
const idInToolMessage = (body: any, prefix: string): string => {
  const tools = body.messages.filter((m: any) => m.role === 'tool').map((m: any) => String(m.content));
  const match = new RegExp(`${prefix}_[0-9A-Z]{26}`).exec(tools.at(-1) ?? '');
  if (!match) throw new Error(`no ${prefix} id in the tool message: ${tools.at(-1)}`);
  return match[0];
};

async function ask(page: Page, question: string): Promise<void> {
  await input(page).fill(question);
  await input(page).press('Enter');
}

describe('the assistant panel', () => {
  it('Ctrl+J, a question: a step and a card; nothing is written before Run; Run creates the deal; the answer links it', async () => {
    const acme = await aClient(suite.api, { name: 'Acme GmbH' });
    fake.script([
      { text: 'Let me find Acme.', toolCalls: [{ name: 'search_clients', args: { q: 'acme' } }] },
      { toolCalls: [{ name: 'create_deal', args: { title: 'Acme rollout', value: 12000, currency: 'EUR', stage: 'proposal', client_id: acme.id } }] },
      (request) => ({ text: `Done: Acme rollout (${idInToolMessage(request.body, 'deal')}) for Acme GmbH (${acme.id}), in Proposal.` }),
    ]);
    const page = await suite.signedIn();
    // Everything the page receives, to check the provider's key is never among it.
    const received: Promise<string>[] = [];
    page.on('response', (response) => {
      // The dashboard's live streams never end: their text would never come. The assistant's turns do end.
      const endless = /event-stream/.test(response.headers()['content-type'] ?? '') && !response.url().includes('/v1/assistant/');
      if (!endless) received.push(response.text().catch(() => ''));
    });
    await page.keyboard.press('Control+j');
    await input(page).waitFor();
    // The focus is in the box at once: the question can be typed straight away.
    expect(await page.evaluate<string>('document.activeElement?.id ?? ""')).toBe('assistant-input');
    await page.keyboard.type('create a deal for Acme worth €12,000 in proposal');
    await page.keyboard.press('Enter');

    const step = panel(page).locator('summary').filter({ hasText: 'Searched clients for “acme”' });
    await step.waitFor();
    const proposal = card(page, 'Create a deal');
    await proposal.waitFor();
    expect(await proposal.textContent()).toContain('Create a deal “Acme rollout”: value €12,000.00, stage proposal, client Acme GmbH');
    // The arguments as a person reads them: money in its currency, the stage and the client by name.
    const args = (await proposal.locator('dl').textContent())!;
    expect(args).toMatch(/Value\s*€12,000\.00/);
    expect(args).toMatch(/Stage\s*Proposal/);
    expect(args).toMatch(/Client\s*Acme GmbH/);
    expect(await proposal.getByRole('note').count()).toBe(0); // a new deal changes nothing that exists
    expect(await panel(page).textContent()).toContain('Let me find Acme.');
    // A plain write: the card takes the focus, on Run.
    await expect.poll(() => focused(page)).toBe('Run');
    // The step opens to its arguments and its result, formatted.
    await step.click();
    expect(await panel(page).getByLabel('Result', { exact: true }).textContent()).toContain(`"id": "${acme.id}"`);

    // Proposed, not written.
    expect((await suite.api.get(`/v1/deals?client_id=${acme.id}`)).body.data).toEqual([]);
    await proposal.getByRole('button', { name: 'Run' }).click();

    const answer = panel(page).locator('.assistant-answer').filter({ hasText: 'Done:' });
    await answer.waitFor();
    await expect.poll(() => liveText(page)).toContain('The assistant answered: Done:');
    const deals = (await suite.api.get(`/v1/deals?client_id=${acme.id}`)).body.data;
    expect(deals).toHaveLength(1);
    expect(deals[0]).toMatchObject({ title: 'Acme rollout', value: 12000, currency: 'EUR', stage: 'proposal' });
    // The card became the step that says what happened.
    await panel(page).locator('summary').filter({ hasText: 'Created a deal “Acme rollout” for Acme GmbH' }).waitFor();

    // The records named in the answer are links by their names, the ids left out.
    expect(await answer.textContent()).toBe('Done: Acme rollout for Acme GmbH, in Proposal.');
    const dealLink = answer.getByRole('link', { name: 'Acme rollout' });
    expect(await dealLink.getAttribute('href')).toBe(`/dashboard/deals/${deals[0].id}`);
    expect(await answer.getByRole('link', { name: 'Acme GmbH' }).getAttribute('href')).toBe(`/dashboard/clients/${acme.id}`);
    await dealLink.click();
    await page.getByRole('heading', { name: 'Acme rollout', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/deals/${deals[0].id}`);
    // The panel stays open beside the page, with its conversation.
    expect(await answer.isVisible()).toBe(true);
    await screenshot(page, 'assistant-answer-light');
    // The provider saw its key; the browser never did, nor the request log it can read.
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
    const bodies = await Promise.all(received);
    expect(bodies.length).toBeGreaterThan(5);
    expect(bodies.join('\n')).not.toContain(PROVIDER_KEY);
    expect(await page.content()).not.toContain(PROVIDER_KEY);
    expect(JSON.stringify((await suite.api.get('/v1/request_logs?limit=200')).body)).not.toContain(PROVIDER_KEY);
    await page.context().close();
  });

  it('Cancel writes nothing, and the step says it was not run', async () => {
    fake.script([
      { toolCalls: [{ name: 'create_lead', args: { first_name: 'Never', last_name: 'Made', email: 'never-made@example.com' } }] },
      { text: 'Cancelled.' },
    ]);
    const page = await suite.signedIn();
    await page.getByRole('button', { name: /^Assistant/ }).click();
    await ask(page, 'Add Never Made as a lead');
    const proposal = card(page, 'Create a lead');
    await proposal.waitFor();
    await proposal.getByRole('button', { name: 'Cancel' }).click();
    await panel(page).locator('summary').filter({ hasText: 'Cancelled: not run' }).waitFor();
    await panel(page).locator('.assistant-answer').filter({ hasText: 'Cancelled.' }).waitFor();
    expect((await suite.api.get('/v1/leads?email=never-made@example.com')).body.data).toEqual([]);
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toMatch(/Cancel/);
    await page.context().close();
  });

  it('a card waiting for Run is still there after a reload and in the history; New conversation starts afresh', async () => {
    fake.script([
      { toolCalls: [{ name: 'create_lead', args: { first_name: 'Reload', last_name: 'Proof', email: 'reload-proof@example.com' } }] },
      { text: 'Added.' },
    ]);
    const page = await suite.signedIn();
    await page.keyboard.press('Control+j');
    await ask(page, 'Add Reload Proof as a lead');
    await card(page, 'Create a lead').waitFor();
    await page.reload();
    // The tab remembers the open panel and its conversation.
    await card(page, 'Create a lead').waitFor();
    await panel(page).getByRole('button', { name: 'New conversation' }).click();
    expect(await card(page, 'Create a lead').count()).toBe(0);
    await panel(page).getByRole('button', { name: 'History' }).click();
    await panel(page)
      .getByRole('button', { name: /^Add Reload Proof as a lead/ })
      .click();
    await card(page, 'Create a lead').getByRole('button', { name: 'Run' }).click();
    await panel(page).locator('.assistant-answer').filter({ hasText: 'Added.' }).waitFor();
    expect((await suite.api.get('/v1/leads?email=reload-proof@example.com')).body.data).toHaveLength(1);
    await page.context().close();
  });

  it('keyboard only: a destructive card focuses Cancel, Tab reaches Run, Enter deletes; axe clean, light and dark; screenshots', async () => {
    const deal = await aDeal(suite.api, { title: 'Obsolete pilot', value: 4200, currency: 'EUR', stage: 'negotiation' });
    fake.script([
      {
        text: `Obsolete pilot (${deal.id}) is worth €4,200.00 and sits in Negotiation. I will delete it.`,
        toolCalls: [{ name: 'get_deal', args: { id: deal.id } }],
      },
      { toolCalls: [{ name: 'delete_deal', args: { id: deal.id } }] },
      { text: 'Deleted.' },
    ]);
    const page = await suite.signedIn();
    const leads = page.getByRole('link', { name: 'Leads', exact: true });
    await leads.focus();
    await page.keyboard.press('Control+j');
    await page.keyboard.type('delete the obsolete pilot deal');
    await page.keyboard.press('Enter');
    const proposal = card(page, 'Delete a deal');
    await proposal.waitFor();
    expect(await proposal.getByRole('note').textContent()).toBe('This changes or deletes existing data.');
    expect(await proposal.textContent()).toContain('Delete a deal “Obsolete pilot”');
    await panel(page).locator('summary').filter({ hasText: 'Looked up a deal “Obsolete pilot”' }).waitFor();
    // Destructive: the focus is on Cancel, so Enter alone never deletes.
    await expect.poll(() => focused(page)).toBe('Cancel');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
    expect(dark.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await shoot(page, 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });

    expect((await suite.api.get(`/v1/deals/${deal.id}`)).status).toBe(200);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Run');
    await page.keyboard.press('Enter');
    await panel(page).locator('.assistant-answer').filter({ hasText: 'Deleted.' }).waitFor();
    expect((await suite.api.get(`/v1/deals/${deal.id}`)).status).toBe(404);
    // Escape closes the panel and gives the focus back to where it was.
    await page.keyboard.press('Escape');
    expect(await panel(page).count()).toBe(0);
    expect(await focused(page)).toBe('Leads');
    await page.context().close();
  });

  it('a provider that fails says so in the chat, with what to do, and gives the question back', async () => {
    fake.script([{ status: 500 }]);
    const page = await suite.signedIn();
    await page.keyboard.press('Control+j');
    await ask(page, 'Hello?');
    const alert = panel(page).getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain("The model provider didn't answer. Check that it is running and reachable, then send your message again.");
    expect(await alert.textContent()).toContain(new URL(fake.url).origin);
    expect(await panel(page).getByText('Working…').count()).toBe(0);
    expect(await input(page).inputValue()).toBe('Hello?');
    await screenshot(page, 'assistant-error-light');
    await page.context().close();
  });

  it('a session without assistant:use has no Assistant button, and Ctrl+J does nothing', async () => {
    const key = await anApiKey(suite.api, ['leads:read']);
    const page = await (await suite.context()).newPage();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/leads`);
    await page.getByLabel('API key').fill(key.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: /^Assistant/ }).count()).toBe(0);
    await page.keyboard.press('Control+j');
    expect(await panel(page).count()).toBe(0);
    await page.context().close();
  });
});

describe('without a model provider', () => {
  it('the panel says how to set one up', async () => {
    const bare = await startSandboxProcess([], { env: { CRM_ASSISTANT_URL: '' } });
    try {
      const page = await (await suite.browser.newContext()).newPage();
      await page.goto(bare.dashboardUrl);
      await page.getByRole('button', { name: /^Assistant/ }).click();
      const setup = panel(page);
      await setup.getByRole('heading', { name: 'Set up a model provider' }).waitFor();
      const text = await setup.textContent();
      expect(await setup.getByLabel('Command for Ollama').textContent()).toBe(
        'crm sandbox start \\\n  --assistant-url http://127.0.0.1:11434/v1 \\\n  --assistant-model llama3.1',
      );
      for (const name of ['--assistant-url', 'CRM_ASSISTANT_URL', '--assistant-model', 'CRM_ASSISTANT_MODEL', 'CRM_ASSISTANT_API_KEY'])
        expect(text).toContain(name);
      expect(await setup.getByRole('link', { name: /docs\/assistant\.md/ }).getAttribute('href')).toMatch(/docs\/assistant\.md$/);
      expect(await setup.getByRole('textbox').count()).toBe(0); // nothing to ask yet
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await page.evaluate(brokenWordsIn, '#assistant-panel')).toEqual([]);
      await screenshot(page, 'assistant-setup-light');
      await page.context().close();
    } finally {
      await bare.stop();
    }
  });
});

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** The panel with an answer, steps and a destructive card, at 1440 and 1024 px: no word of it broken across lines. */
async function shoot(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(brokenWordsIn, '#assistant-panel'), `${width} px`).toEqual([]);
    await screenshot(page, `assistant-${width}-${scheme}`);
  }
}
