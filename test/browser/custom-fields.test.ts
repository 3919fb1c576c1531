import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations, useBrowser, type BrowserSuite } from '../helpers/browser.js';
import { measure } from './measure-layout.js';

/**
 * Custom fields in the dashboard (docs/dashboard.md#custom-fields): defined on the Fields page (options
 * reordered from the keyboard), shown typed on record pages, edited in the record forms, deleted after a
 * confirmation that names how many records lose a value. Every effect is checked through the API.
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

const SHOTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'screenshots', 'custom-fields');

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // The seed's four fields, which the tests use beside their own.
  const keys = (await suite.api.get('/v1/fields?limit=100')).body.data.map((f: { object: string; key: string }) => `${f.object}.${f.key}`);
  expect(keys).toEqual(expect.arrayContaining(['client.industry', 'client.employees', 'lead.lifecycle_stage', 'deal.product_line']));
});

const fieldByKey = async (object: string, key: string) =>
  (await suite.api.get(`/v1/fields?object=${object}&limit=200`)).body.data.find((f: { key: string }) => f.key === key);

/** The request body of the newest PATCH to `path`, as the request log kept it. */
async function lastPatchBody(path: string): Promise<unknown> {
  const [entry] = (await suite.api.get(`/v1/request_logs?method=PATCH&path_prefix=${encodeURIComponent(path)}&order=desc&limit=1`)).body.data;
  return (await suite.api.get(`/v1/request_logs/${entry.id}`)).body.request_body;
}

/** A fresh browser signed in by pasting an API key: the session has that key's scopes only. */
async function signedInWith(secret: string): Promise<Page> {
  const page = await (await suite.context()).newPage();
  await page.goto(`${suite.sandbox.baseUrl}/dashboard/`);
  await page.getByLabel('API key').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Overview' }).waitFor();
  return page;
}

/** The aria-label of the focused element. */
const focusedName = (page: Page) => page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null");

const detail = (page: Page, label: string) => page.locator('dl.fields dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

describe('defining a field on the Fields page', () => {
  it('creates a select field with three options, one moved up from the keyboard; a client shows its value as a chip with the label and edits it', async () => {
    const page = await suite.signedIn();
    await page.getByRole('link', { name: 'Fields' }).click();
    await page.getByRole('heading', { name: 'Custom fields', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Clients' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('table').getByText('Industry', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'New client field' }).click();
    const dialog = page.getByRole('dialog', { name: 'New client field' });
    await dialog.getByLabel('Label', { exact: true }).fill('Customer tier');
    // The key follows the label until it is typed by hand.
    expect(await dialog.getByLabel('Key', { exact: true }).inputValue()).toBe('customer_tier');
    await dialog.getByRole('radio', { name: 'Select', exact: true }).check();
    await dialog.getByLabel('Option 1 label').fill('Bronze');
    await dialog.getByRole('button', { name: 'Add option' }).click();
    await expect.poll(() => focusedName(page)).toBe('Option 2 label');
    await page.keyboard.type('Silver');
    await dialog.getByRole('button', { name: 'Add option' }).click();
    await dialog.getByLabel('Option 3 label').fill('Gold');
    expect(await dialog.getByLabel('Option 3 value').inputValue()).toBe('gold');

    // Gold to the top by keyboard alone: the focus stays on the moving option's buttons, a status line says where it went.
    await dialog.getByRole('button', { name: 'Move Gold up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedName(page)).toBe('Move Gold up');
    await page.keyboard.press('Space');
    await dialog.getByRole('status').filter({ hasText: 'Gold moved to position 1 of 3.' }).waitFor({ state: 'attached' });
    // At the top its Move up is disabled: the focus went to its Move down.
    await expect.poll(() => focusedName(page)).toBe('Move Gold down');
    expect(await dialog.getByRole('button', { name: 'Move Gold up' }).isDisabled()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create field' }).click();
    await page.getByRole('status').filter({ hasText: 'Created the field Customer tier (customer_tier).' }).waitFor();

    const tier = await fieldByKey('client', 'customer_tier');
    expect(tier).toMatchObject({
      type: 'select',
      label: 'Customer tier',
      required: false,
      options: [
        { value: 'gold', label: 'Gold' },
        { value: 'bronze', label: 'Bronze' },
        { value: 'silver', label: 'Silver' },
      ],
    });
    const row = page.getByRole('row').filter({ hasText: 'customer_tier' });
    expect(await row.getByRole('cell').allTextContents()).toEqual(['Customer tier', 'customer_tier', 'Select', 'Optional', '3', 'EditDelete']);

    // A value set through the API shows as the option's label, beside the seed's fields.
    const client = (await suite.api.post('/v1/clients', { name: 'Tiered GmbH', custom_fields: { industry: 'Software', employees: 12500 } })).body;
    expect(
      (await suite.api.patch(`/v1/clients/${client.id}`, { custom_fields: { industry: 'Software', employees: 12500, customer_tier: 'gold' } })).status,
    ).toBe(200);
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/clients/${client.id}`);
    await page.getByRole('heading', { name: 'Tiered GmbH', level: 1 }).waitFor();
    expect(await detail(page, 'Customer tier').locator('.chip').textContent()).toBe('Gold');
    expect(await detail(page, 'Industry').locator('.chip').textContent()).toBe('Software');
    expect(await detail(page, 'Employees').textContent()).toBe('12,500');

    // Edited in the client's form: only the changed key is sent, and the API holds the new value.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    expect(await page.getByLabel('Employees', { exact: true }).getAttribute('step')).toBe('1');
    await page.getByLabel('Customer tier', { exact: true }).selectOption({ label: 'Silver' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await lastPatchBody(`/v1/clients/${client.id}`)).toEqual({ custom_fields: { customer_tier: 'silver' } });
    expect((await suite.api.get(`/v1/clients/${client.id}`)).body.custom_fields.customer_tier).toBe('silver');
    expect(await detail(page, 'Customer tier').locator('.chip').textContent()).toBe('Silver');
    // The history says the change by the field's label and the options' labels.
    await page.getByRole('complementary', { name: 'Related and history' }).getByText('Customer tier: Gold → Silver').waitFor();
    await page.context().close();
  }, 120_000);

  it('shows the API’s 409 beside the options when an option records hold is removed, and changes nothing', async () => {
    const plan = (
      await suite.api.post('/v1/fields', {
        object: 'client',
        key: 'plan_kind',
        label: 'Plan kind',
        type: 'select',
        options: [
          { value: 'basic', label: 'Basic' },
          { value: 'plus', label: 'Plus' },
        ],
      })
    ).body;
    await suite.api.post('/v1/clients', { name: 'Basic Buyer AB', custom_fields: { plan_kind: 'basic' } });
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/fields`);
    await page.getByRole('button', { name: 'Edit Plan kind' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the field Plan kind' });
    await dialog.getByRole('button', { name: 'Remove Basic' }).click();
    await dialog.getByRole('button', { name: 'Save field' }).click();
    const alert = dialog.locator('.options-editor [role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toContain("1 client hold the option 'basic'");
    expect((await suite.api.get(`/v1/fields/${plan.id}`)).body.options).toHaveLength(2);
    await page.context().close();
  }, 90_000);
});

describe('values in the record forms', () => {
  it('a multi-select, a date and a date-time go round trip through a new deal and its edit', async () => {
    await suite.api.post('/v1/fields', { object: 'deal', key: 'renewal_on', label: 'Renewal on', type: 'date' });
    await suite.api.post('/v1/fields', { object: 'deal', key: 'kickoff_at', label: 'Kickoff', type: 'datetime' });
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/deals?new=1`);
    const form = page.getByRole('dialog', { name: 'New deal' });
    await form.getByLabel('Title', { exact: true }).fill('Fielded rollout');
    await form.getByLabel('Value', { exact: true }).fill('1200');
    const lines = form.getByRole('group', { name: 'Product line' });
    await lines.getByLabel('Platform', { exact: true }).check();
    await lines.getByLabel('Support', { exact: true }).check();
    await form.getByLabel('Renewal on', { exact: true }).fill('2027-03-31');
    await form.getByLabel('Kickoff', { exact: true }).fill('2026-12-01T09:30');
    await form.getByRole('button', { name: 'Create deal' }).click();
    await page.getByRole('heading', { name: 'Fielded rollout', level: 1 }).waitFor();

    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    const deal = (await suite.api.get(`/v1/deals/${id}`)).body;
    // The time as the person meant it in their own clock, sent with that clock's offset.
    const kickoff = await page.evaluate(() => new Date('2026-12-01T09:30').getTime());
    expect(deal.custom_fields).toMatchObject({ product_line: ['platform', 'support'], renewal_on: '2027-03-31' });
    expect(deal.custom_fields.kickoff_at).toMatch(/^2026-12-0[12]T\d\d:\d\d:00([+-]\d\d:\d\d|Z)$/);
    expect(Date.parse(deal.custom_fields.kickoff_at)).toBe(kickoff);
    expect(await detail(page, 'Product line').locator('.chip').allTextContents()).toEqual(['Platform', 'Support']);
    expect(await detail(page, 'Renewal on').textContent()).toBe('Mar 31, 2027');
    expect(await detail(page, 'Kickoff').locator('time').getAttribute('datetime')).toBe(new Date(kickoff).toISOString());

    // Edit: untick one option and empty the date; the date-time untouched is not sent.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('group', { name: 'Product line' }).getByLabel('Platform', { exact: true }).uncheck();
    await page.getByLabel('Renewal on', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await lastPatchBody(`/v1/deals/${id}`)).toEqual({ custom_fields: { product_line: ['support'], renewal_on: null } });
    const after = (await suite.api.get(`/v1/deals/${id}`)).body.custom_fields;
    expect(after.product_line).toEqual(['support']);
    expect(after.renewal_on ?? null).toBeNull();
    expect(await detail(page, 'Renewal on').textContent()).toBe('—');
    await page.context().close();
  }, 120_000);

  it('a required field is marked, and the form names it before sending', async () => {
    await suite.api.post('/v1/fields', { object: 'lead', key: 'region_code', label: 'Region code', type: 'text', required: true });
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/leads?new=1`);
    const form = page.getByRole('dialog', { name: 'New lead' });
    const region = form.getByLabel('Region code', { exact: true });
    expect(await region.getAttribute('aria-required')).toBe('true');
    expect(await form.locator('.field:has(#new-lead-custom_fields-region_code) .required-mark').count()).toBe(1);
    await form.getByLabel('Last name', { exact: true }).fill('Required-Test');
    // The seed's select of leads, offered by its labels.
    await form.getByLabel('Lifecycle stage', { exact: true }).selectOption({ label: 'Sales qualified' });
    await form.getByRole('button', { name: 'Create lead' }).click();
    await expect.poll(() => region.getAttribute('aria-invalid')).toBe('true');
    expect(await form.locator('.field-error').textContent()).toBe('Region code is required: fill it in.');
    expect((await suite.api.get('/v1/leads?q=Required-Test')).body.data).toEqual([]);
    await region.fill('EMEA');
    await form.getByRole('button', { name: 'Create lead' }).click();
    await page.getByRole('heading', { name: 'Required-Test', level: 1 }).waitFor();
    const [lead] = (await suite.api.get('/v1/leads?q=Required-Test')).body.data;
    expect(lead.custom_fields).toEqual({ region_code: 'EMEA', lifecycle_stage: 'sales_qualified' });
    expect(await detail(page, 'Lifecycle stage').locator('.chip').textContent()).toBe('Sales qualified');
    // Later tests create leads through the API: not required any more.
    const field = await fieldByKey('lead', 'region_code');
    await suite.api.delete(`/v1/fields/${field.id}`);
    await page.context().close();
  }, 90_000);
});

describe('lists', () => {
  it('shows chosen custom fields as columns and filters by a select, both kept in the URL', async () => {
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/clients`);
    const table = page.getByRole('table', { name: /Clients/ });
    await table.locator('tbody tr').first().waitFor();
    await page.locator('summary', { hasText: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Industry' }).check();
    await page.getByRole('checkbox', { name: 'Employees' }).check();
    await expect.poll(() => new URL(page.url()).searchParams.get('columns')).toBe('industry,employees');
    await table.getByRole('columnheader', { name: 'Employees' }).waitFor();

    await page.getByRole('combobox', { name: 'Industry', exact: true }).selectOption({ label: 'Software' });
    await expect.poll(() => new URL(page.url()).searchParams.get('custom_fields.industry')).toBe('Software');
    const software = (await suite.api.get('/v1/clients?custom_fields.industry=Software&limit=100')).body.data.length;
    expect(software).toBeGreaterThan(0);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(Math.min(software, 25));
    expect(new Set(await table.locator('tbody .chip').allTextContents())).toEqual(new Set(['Software']));

    // Sorted by a custom column, from its header.
    await table.getByRole('button', { name: 'Employees' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('custom_fields.employees');
    const sorted = (await suite.api.get('/v1/clients?custom_fields.industry=Software&sort=custom_fields.employees&order=asc&limit=25')).body.data;
    await expect.poll(() => table.locator('tbody tr td:first-child').allTextContents()).toEqual(sorted.map((c: { name: string }) => c.name));

    // A reload keeps the columns and the filter.
    await page.reload();
    await table.getByRole('columnheader', { name: 'Industry' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Industry', exact: true }).inputValue()).toBe('Software');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  }, 90_000);
});

describe('deleting a field', () => {
  it('the confirmation names how many clients hold a value; cancel keeps it, confirm removes it and the values', async () => {
    const legacy = (await suite.api.post('/v1/fields', { object: 'client', key: 'legacy_code', label: 'Legacy code', type: 'text' })).body;
    const held = await Promise.all(
      ['Old One Oy', 'Old Two Oy'].map(
        async (name) => (await suite.api.post('/v1/clients', { name, custom_fields: { legacy_code: `L-${name.length}` } })).body,
      ),
    );
    const usage = (await suite.api.get(`/v1/fields/${legacy.id}/usage`)).body.records_with_values;
    expect(usage).toBe(2);
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/fields`);
    await page.getByRole('button', { name: 'Delete Legacy code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the field Legacy code?' });
    expect(await dialog.textContent()).toContain('2 clients hold a value for it: those values are removed from them for good');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await suite.api.get(`/v1/fields/${legacy.id}`)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete Legacy code' }).click();
    await dialog.getByRole('button', { name: 'Delete field' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted the field Legacy code, and its values on 2 clients.' }).waitFor();
    expect((await suite.api.get(`/v1/fields/${legacy.id}`)).status).toBe(404);
    for (const client of held) expect((await suite.api.get(`/v1/clients/${client.id}`)).body.custom_fields).not.toHaveProperty('legacy_code');
    expect(await page.getByRole('row').filter({ hasText: 'legacy_code' }).count()).toBe(0);
    await page.context().close();
  }, 90_000);
});

describe('scopes', () => {
  it('without fields:read the page is not listed and a record shows its values by key; without fields:write nothing can be changed', async () => {
    const readOnly = (await suite.api.post('/v1/api_keys', { name: 'clients only', scopes: ['clients:read'] })).body;
    const client = (await suite.api.post('/v1/clients', { name: 'Keyed Values Ltd', custom_fields: { industry: 'Energy', employees: 40 } })).body;
    let page = await signedInWith(readOnly.secret);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fields' }).count()).toBe(0);
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/clients/${client.id}`);
    await page.getByRole('heading', { name: 'Keyed Values Ltd', level: 1 }).waitFor();
    expect(await detail(page, 'industry').textContent()).toBe('Energy');
    expect(await detail(page, 'employees').textContent()).toBe('40');
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/fields`);
    expect(await page.getByRole('alert').textContent()).toContain('lacks fields:read');
    await page.context().close();

    const reader = (await suite.api.post('/v1/api_keys', { name: 'fields reader', scopes: ['fields:read', 'clients:write'] })).body;
    page = await signedInWith(reader.secret);
    await page.getByRole('link', { name: 'Fields' }).click();
    await page.getByRole('table').getByText('Industry', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: /^(New client field|Edit Industry|Delete Industry)$/ }).count()).toBe(0);
    await page.context().close();
  }, 90_000);
});

describe('accessible and laid out', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`the Fields page and a client's page: no serious axe violation (${scheme}); no word broken, nothing cut at 1440 and 1024 px`, async () => {
      const [client] = (await suite.api.get('/v1/clients?limit=1')).body.data;
      const page = await suite.signedIn(scheme);
      for (const [path, heading] of [
        ['fields', 'Custom fields'],
        ['fields?object=deal', 'Custom fields'],
        [`clients/${client.id}`, client.name],
      ] as const) {
        await page.goto(`${suite.sandbox.baseUrl}/dashboard/${path}`);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await page.getByText('Loading…').first().waitFor({ state: 'detached' });
        expect(await seriousAxeViolations(page), path).toEqual([]);
        for (const width of [1440, 1024]) {
          await page.setViewportSize({ width, height: 900 });
          expect(await page.evaluate(measure), `${path} at ${width}`).toEqual([]);
          await page.screenshot({ path: join(SHOTS, `${path.replace(/[/?=]/g, '-')}-${scheme}-${width}.png`), fullPage: true });
        }
      }
      await page.goto(`${suite.sandbox.baseUrl}/dashboard/fields`);
      await page.getByRole('button', { name: 'Edit Industry' }).click();
      await page.getByRole('dialog', { name: 'Edit the field Industry' }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.context().close();
    }, 120_000);
  }
});
