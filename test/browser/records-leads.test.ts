import { describe, expect, it } from 'vitest';
import { dialogs, seriousAxeViolations, useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * Leads in the browser (docs/dashboard.md#pages): create from the list, validation errors beside their field,
 * one record per form however often Create is clicked, edit, history (live), delete only after
 * confirming, convert into a client. Every effect is checked through the API of a real sandbox.
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

const leadsByEmail = async (email: string) => (await suite.api.get(`/v1/leads?email=${encodeURIComponent(email)}`)).body.data as Record<string, any>[];
const idFromUrl = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').at(-1)!);

describe('creating a lead', () => {
  it('New lead opens a labelled form; Create makes the lead with those fields and opens its page', async () => {
    const page = await suite.signedIn();
    await page.getByRole('link', { name: 'Leads' }).click();
    await page.getByRole('button', { name: 'New lead' }).click();
    const form = page.getByRole('dialog', { name: 'New lead' });
    await form.getByLabel('First name', { exact: true }).fill('Ada');
    await form.getByLabel('Last name', { exact: true }).fill('Lovelace');
    await form.getByLabel('Email', { exact: true }).fill('ada@engines.example');
    await form.getByLabel('Company', { exact: true }).fill('Analytical Engines');
    await form.getByLabel('Source', { exact: true }).selectOption({ label: 'Referral' });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create lead' }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
    const id = idFromUrl(page.url());
    expect(page.url()).toBe(`${suite.sandbox.baseUrl}/dashboard/leads/${id}`);
    const lead = (await suite.api.get(`/v1/leads/${id}`)).body;
    expect(lead).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@engines.example',
      company: 'Analytical Engines',
      source: 'referral',
      status: 'new',
    });
    // The page is a readable form: labels and values, the source by its name, no JSON.
    await page.getByRole('definition').filter({ hasText: 'Referral' }).waitFor();
    expect(await page.locator('pre').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(dialogs.get(page)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('a double click on Create makes one lead, and the create carried an Idempotency-Key', async () => {
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/leads`);
    await page.getByRole('button', { name: 'New lead' }).click();
    const form = page.getByRole('dialog', { name: 'New lead' });
    await form.getByLabel('First name', { exact: true }).fill('Twice');
    await form.getByLabel('Email', { exact: true }).fill('twice@clicks.example');
    await form.getByRole('button', { name: 'Create lead' }).dblclick();
    await page.getByRole('heading', { name: 'Twice', level: 1 }).waitFor();
    expect(await leadsByEmail('twice@clicks.example')).toHaveLength(1);
    const log = (await suite.api.get('/v1/request_logs?method=POST&path_prefix=/v1/leads&limit=1000')).body.data as {
      path: string;
      status: number;
      idempotency_key: string | null;
    }[];
    const creates = log.filter((r) => r.path === '/v1/leads');
    expect(creates.length).toBeGreaterThan(0);
    for (const r of creates) expect(r.idempotency_key).toMatch(/^dashboard-[0-9a-f]{32}$/);
    await page.context().close();
  }, 90_000);

  it("shows the API's validation error beside the field it names, and a corrected form then creates the lead", async () => {
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/leads`);
    await page.getByRole('button', { name: 'New lead' }).click();
    const form = page.getByRole('dialog', { name: 'New lead' });
    await form.getByLabel('First name', { exact: true }).fill('Grace');
    const email = form.getByLabel('Email', { exact: true });
    await email.fill('grace-at-navy');
    await form.getByRole('button', { name: 'Create lead' }).click();
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    const errorId = (await email.getAttribute('aria-describedby'))!;
    const message = page.locator(`[id="${errorId}"]`);
    expect(await message.textContent()).toMatch(/email/i);
    // Beside it: in the same field as the input, not in a banner elsewhere.
    expect(await email.locator('xpath=..').locator(`[id="${errorId}"]`).count()).toBe(1);
    expect(await form.getByLabel('First name', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    expect(await leadsByEmail('grace-at-navy')).toHaveLength(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The 422 was stored under the first key: the corrected body goes with a new one, and succeeds.
    await email.fill('grace@navy.example');
    await form.getByRole('button', { name: 'Create lead' }).click();
    await page.getByRole('heading', { name: 'Grace', level: 1 }).waitFor();
    expect(await leadsByEmail('grace@navy.example')).toHaveLength(1);
    await page.context().close();
  }, 90_000);
});

describe('a lead page', () => {
  it('edits the lead, and shows its history newest first, live', async () => {
    const lead = (await suite.api.post('/v1/leads', { first_name: 'Katherine', last_name: 'Johnson', company: 'Langley', email: 'kj@langley.example' })).body;
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/leads/${lead.id}`);
    await page.getByRole('heading', { name: 'Katherine Johnson', level: 1 }).waitFor();
    const history = page.getByRole('list', { name: 'Events of this lead, newest first' });
    await history.getByRole('listitem').filter({ hasText: 'Created' }).waitFor();

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Contacted' });
    await page.getByLabel('Job title', { exact: true }).fill('Mathematician');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await suite.api.get(`/v1/leads/${lead.id}`)).body).toMatchObject({ status: 'contacted', title: 'Mathematician' });
    await history.getByRole('listitem').first().filter({ hasText: 'Status: New → Contacted' }).waitFor();

    // A change made elsewhere arrives live: a new first history entry, and the field shows it.
    await suite.api.patch(`/v1/leads/${lead.id}`, { phone: '+1 757 555 0100' });
    await history.getByRole('listitem').first().filter({ hasText: 'Phone' }).waitFor({ timeout: 15_000 });
    await page.getByRole('definition').filter({ hasText: '+1 757 555 0100' }).waitFor();
    const entries = await history.getByRole('listitem').allTextContents();
    expect(entries.map((e) => e.split(' ')[0])).toEqual(['Updated', 'Updated', 'Created']);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('deletes nothing until the dialog is confirmed: Cancel and Escape keep the lead, Delete lead deletes it', async () => {
    const lead = (await suite.api.post('/v1/leads', { first_name: 'Keep', last_name: 'Me' })).body;
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/leads/${lead.id}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the lead Keep Me?' });
    expect(await dialog.textContent()).toContain('deleted for good');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await suite.api.get(`/v1/leads/${lead.id}`)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await suite.api.get(`/v1/leads/${lead.id}`)).status).toBe(200);
    // The focus went back to the button that opened the dialog (Chromium may settle a closing modal's focus a task later).
    await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Delete');

    await page.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete lead' }).click();
    await page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
    expect((await suite.api.get(`/v1/leads/${lead.id}`)).status).toBe(404);
    await page.context().close();
  }, 90_000);

  it('converts the lead into a client and links the two', async () => {
    const lead = (
      await suite.api.post('/v1/leads', { first_name: 'Charles', last_name: 'Babbage', company: 'Difference Engines Ltd', email: 'charles@difference.example' })
    ).body;
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/leads/${lead.id}`);
    await page.getByRole('button', { name: 'Convert' }).click();
    const dialog = page.getByRole('dialog', { name: 'Convert Charles Babbage to a client' });
    expect(await dialog.getByLabel('Client name', { exact: true }).inputValue()).toBe('Difference Engines Ltd');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Convert to client' }).click();
    await page.getByRole('status').filter({ hasText: 'Converted' }).waitFor();

    const converted = (await suite.api.get(`/v1/leads/${lead.id}`)).body;
    expect(converted.status).toBe('converted');
    const client = (await suite.api.get(`/v1/clients/${converted.converted_client_id}`)).body;
    // A company client, with the lead's person as its primary contact.
    expect(client).toMatchObject({ name: 'Difference Engines Ltd', kind: 'company' });
    expect(client.contacts).toMatchObject([{ first_name: 'Charles', last_name: 'Babbage', email: 'charles@difference.example', is_primary: true }]);
    // The converted lead links to its client by name; Convert is gone.
    await page.getByRole('link', { name: 'Difference Engines Ltd' }).click();
    await page.getByRole('heading', { name: 'Difference Engines Ltd', level: 1 }).waitFor();
    await page
      .getByRole('table', { name: 'Contact persons of Difference Engines Ltd' })
      .getByRole('cell', { name: /^Charles Babbage/ })
      .waitFor();
    expect(page.url()).toBe(`${suite.sandbox.baseUrl}/dashboard/clients/${client.id}`);
    await page.goBack();
    await page.getByRole('heading', { name: 'Charles Babbage', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Convert' }).count()).toBe(0);
    await page.context().close();
  }, 90_000);
});

describe('the leads list', () => {
  it('keeps its filters in the URL, names leads (linking to their pages) and says what to do when empty', async () => {
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/leads`);
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Qualified' });
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('qualified');
    await page.reload();
    const table = page.getByRole('table', { name: /Leads/ });
    await table.getByRole('row').nth(1).waitFor();
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('qualified');
    const statuses = await table.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['Qualified']));
    const first = table.locator('tbody tr').first().getByRole('link').first();
    expect(await first.getAttribute('href')).toMatch(/^\/dashboard\/leads\/lead_/);
    expect(await first.textContent()).not.toMatch(/^lead_/);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.goto(`${suite.sandbox.baseUrl}/dashboard/leads?email=nobody@nowhere.example`);
    await table.getByText('No leads match these filters.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await table.locator('tbody tr').nth(2).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.context().close();
  }, 90_000);
});
