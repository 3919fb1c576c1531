import { describe, expect, it } from 'vitest';
import { seriousAxeViolations, useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * Clients in the browser (docs/dashboard.md#pages): create and edit with errors beside their fields, contact
 * persons added, edited and removed on the client's page, its deals and invoices as links, delete
 * only after confirming. Effects are checked through the API of a real sandbox.
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

const idFromUrl = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').at(-1)!);

describe('creating and editing a client', () => {
  it('shows each validation error beside its own field, then creates the client with its address', async () => {
    const page = await suite.signedIn();
    await page.getByRole('link', { name: 'Clients' }).click();
    await page.getByRole('button', { name: 'New client' }).click();
    const form = page.getByRole('dialog', { name: 'New client' });
    await form.getByLabel('Email', { exact: true }).fill('billing@babbage.example');
    await form.getByLabel('City', { exact: true }).fill('London');
    const country = form.getByLabel('Country', { exact: true });
    await country.fill('England');
    await form.getByRole('button', { name: 'Create client' }).click();
    // Two errors, each beside the field its path names (name; address.country).
    const name = form.getByLabel('Name', { exact: true });
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await country.getAttribute('aria-invalid')).toBe('true');
    const countryError = page.locator(`[id="${await country.getAttribute('aria-describedby').then((ids) => ids!.split(' ').at(-1))}"]`);
    expect(await countryError.textContent()).toContain('ISO 3166-1');
    expect(await country.locator('xpath=..').locator('.field-error').textContent()).toContain('ISO 3166-1');
    expect(await form.getByLabel('City', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await name.fill('Babbage & Co.');
    await country.fill('GB');
    await form.getByRole('button', { name: 'Create client' }).click();
    await page.getByRole('heading', { name: 'Babbage & Co.', level: 1 }).waitFor();
    const client = (await suite.api.get(`/v1/clients/${idFromUrl(page.url())}`)).body;
    expect(client).toMatchObject({ name: 'Babbage & Co.', kind: 'company', email: 'billing@babbage.example', address: { city: 'London', country: 'GB' } });

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Phone', { exact: true }).fill('+44 20 7946 0000');
    await page.getByLabel('Kind', { exact: true }).selectOption({ label: 'Person' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await suite.api.get(`/v1/clients/${client.id}`)).body).toMatchObject({
      phone: '+44 20 7946 0000',
      kind: 'person',
      address: { city: 'London', country: 'GB' },
    });
    await page.context().close();
  }, 90_000);
});

describe("a client's contact persons", () => {
  it('adds, edits and removes a contact person (removing asks first)', async () => {
    const client = (await suite.api.post('/v1/clients', { name: 'Hopper Systems' })).body;
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/clients/${client.id}`);
    await page.getByText('No contact persons yet.', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'Add contact' }).click();
    const add = page.getByRole('dialog', { name: 'Add a contact person to Hopper Systems' });
    await add.getByLabel('First name', { exact: true }).fill('Grace');
    await add.getByLabel('Last name', { exact: true }).fill('Hopper');
    await add.getByLabel('Email', { exact: true }).fill('grace@hopper.example');
    await add.getByLabel('Role', { exact: true }).fill('Rear admiral');
    await add.getByLabel('Primary contact', { exact: true }).check();
    await add.getByRole('button', { name: 'Add contact' }).click();
    const contactsTable = page.getByRole('table', { name: 'Contact persons of Hopper Systems' });
    await contactsTable.getByRole('cell', { name: /^Grace Hopper/ }).waitFor();
    let contacts = (await suite.api.get(`/v1/clients/${client.id}`)).body.contacts;
    expect(contacts).toMatchObject([{ first_name: 'Grace', last_name: 'Hopper', email: 'grace@hopper.example', role: 'Rear admiral', is_primary: true }]);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Edit Grace Hopper' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Grace Hopper' });
    await edit.getByLabel('Role', { exact: true }).fill('Computer scientist');
    await edit.getByRole('button', { name: 'Save contact' }).click();
    await contactsTable.getByText('Computer scientist').waitFor();
    contacts = (await suite.api.get(`/v1/clients/${client.id}`)).body.contacts;
    expect(contacts).toMatchObject([{ first_name: 'Grace', role: 'Computer scientist' }]);

    await page.getByRole('button', { name: 'Remove Grace Hopper' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Grace Hopper from Hopper Systems?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await suite.api.get(`/v1/clients/${client.id}`)).body.contacts).toHaveLength(1);
    await page.getByRole('button', { name: 'Remove Grace Hopper' }).click();
    await confirm.getByRole('button', { name: 'Remove contact' }).click();
    await page.getByText('No contact persons yet.', { exact: false }).waitFor();
    expect((await suite.api.get(`/v1/clients/${client.id}`)).body.contacts).toEqual([]);
    await page.context().close();
  }, 90_000);
});

describe("a client's related records", () => {
  it('lists its deals and invoices by name and amount, linking both ways', async () => {
    const client = (await suite.api.post('/v1/clients', { name: 'Lovelace Analytics', email: 'ap@lovelace.example' })).body;
    const deal = (await suite.api.post('/v1/deals', { title: 'Engine retrofit', value: 2717000, currency: 'JPY', stage: 'lead_in', client_id: client.id }))
      .body;
    const invoice = (
      await suite.api.post('/v1/invoices', { client_id: client.id, currency: 'EUR', line_items: [{ description: 'Survey', quantity: 1, unit_price: 1250.5 }] })
    ).body;
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/clients/${client.id}`);
    const deals = page.getByRole('region', { name: 'Deals' });
    await deals.getByRole('link', { name: 'Engine retrofit' }).waitFor();
    expect(await deals.textContent()).toContain('¥2,717,000');
    expect(await deals.textContent()).toContain('Lead in');
    const invoices = page.getByRole('region', { name: 'Invoices' });
    await invoices.getByRole('link', { name: invoice.number }).waitFor();
    expect(await invoices.textContent()).toContain('€1,250.50');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await deals.getByRole('link', { name: 'Engine retrofit' }).click();
    await page.getByRole('heading', { name: 'Engine retrofit', level: 1 }).waitFor();
    expect(page.url()).toBe(`${suite.sandbox.baseUrl}/dashboard/deals/${deal.id}`);
    await page.getByRole('link', { name: 'Lovelace Analytics' }).click();
    await page.getByRole('heading', { name: 'Lovelace Analytics', level: 1 }).waitFor();

    // A client with invoices cannot be deleted: the dialog asks, the API refuses, the page says why.
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete the client Lovelace Analytics?' }).getByRole('button', { name: 'Delete client' }).click();
    await page.getByRole('status').filter({ hasText: 'cannot be deleted' }).waitFor();
    expect((await suite.api.get(`/v1/clients/${client.id}`)).status).toBe(200);
    await page.context().close();
  }, 90_000);

  it('deletes a client only after the dialog is confirmed', async () => {
    const client = (await suite.api.post('/v1/clients', { name: 'Short Lived Ltd' })).body;
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/clients/${client.id}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the client Short Lived Ltd?' });
    expect(await dialog.textContent()).toContain('contact persons');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await suite.api.get(`/v1/clients/${client.id}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete client' }).click();
    await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
    expect((await suite.api.get(`/v1/clients/${client.id}`)).status).toBe(404);
    await page.context().close();
  }, 90_000);
});

describe('the clients list', () => {
  it('searches with q kept in the URL and links each client by name', async () => {
    await suite.api.post('/v1/clients', { name: 'Zuse Rechenanlagen' });
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/clients`);
    await page.getByLabel('Search', { exact: true }).fill('Zuse');
    await page.getByLabel('Search', { exact: true }).press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('Zuse');
    const table = page.getByRole('table', { name: /Clients/ });
    await table.getByRole('link', { name: 'Zuse Rechenanlagen' }).waitFor();
    // Newest first, the client is also on top of the list before the search's answer replaces it:
    // wait for that answer, not for the link.
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  }, 90_000);
});
