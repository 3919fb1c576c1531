import { describe, expect, it } from 'vitest';
import { seriousAxeViolations, useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * Deals and invoices in the browser (docs/dashboard.md#pages): create with a client picked by name, money in
 * the record's currency, refused transitions with the API's message; invoices with line items and
 * totals, Send, Void only after confirming, Overdue shown. Effects are checked through the API.
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

const idFromUrl = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').at(-1)!);

describe('deals', () => {
  it('creates a deal with its client picked by name, shows its value in its currency, and edits it', async () => {
    const client = (await suite.api.post('/v1/clients', { name: 'Turing Machines plc' })).body;
    const page = await suite.signedIn();
    await page.getByRole('link', { name: 'Deals' }).click();
    await page.getByRole('button', { name: 'New deal' }).click();
    const form = page.getByRole('dialog', { name: 'New deal' });
    await form.getByLabel('Title', { exact: true }).fill('Enigma support');
    const value = form.getByLabel('Value', { exact: true });
    await value.fill('-5');
    await form.getByLabel('Currency', { exact: true }).selectOption('USD');
    await form.getByLabel('Stage', { exact: true }).selectOption({ label: 'Proposal' });
    await form.getByLabel('Client', { exact: true }).selectOption({ label: 'Turing Machines plc' });
    // A lost reason belongs to a deal that exists: the edit form has it, the new-deal form not.
    expect(await form.getByLabel('Lost reason').count()).toBe(0);
    await form.getByRole('button', { name: 'Create deal' }).click();
    await expect.poll(() => value.getAttribute('aria-invalid')).toBe('true');
    expect(await value.locator('xpath=..').locator('.field-error').textContent()).toMatch(/>=\s*0|too small|nonnegative/i);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await value.fill('12500.5');
    await form.getByRole('button', { name: 'Create deal' }).click();
    await page.getByRole('heading', { name: 'Enigma support', level: 1 }).waitFor();
    const deal = (await suite.api.get(`/v1/deals/${idFromUrl(page.url())}`)).body;
    expect(deal).toMatchObject({ title: 'Enigma support', value: 12500.5, currency: 'USD', stage: 'proposal', client_id: client.id });
    await page.getByRole('definition').filter({ hasText: '$12,500.50' }).waitFor();
    await page.getByRole('link', { name: 'Turing Machines plc' }).waitFor();
    // The stage as people read it, in the header badge.
    await page.locator('.page-header').getByText('Proposal', { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Stage', { exact: true }).selectOption({ label: 'Won' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const won = (await suite.api.get(`/v1/deals/${deal.id}`)).body;
    expect(won.stage).toBe('won');
    expect(won.won_at).not.toBeNull();

    // A won deal cannot move back by an edit: the API refuses, and the form says why.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Stage', { exact: true }).selectOption({ label: 'Qualified' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'reopen it first' }).waitFor();
    expect((await suite.api.get(`/v1/deals/${deal.id}`)).body.stage).toBe('won');
    await page.context().close();
  }, 90_000);

  it('loses a deal from its page with a reason, and edits the reason later', async () => {
    const deal = (await suite.api.post('/v1/deals', { title: 'Colossus upgrade', value: 800, currency: 'GBP', stage: 'negotiation' })).body;
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/deals/${deal.id}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Stage', { exact: true }).selectOption({ label: 'Lost' });
    await page.getByLabel('Lost reason', { exact: true }).fill('No budget this year');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await suite.api.get(`/v1/deals/${deal.id}`)).body).toMatchObject({ stage: 'lost', lost_reason: 'No budget this year' });
    await page.getByRole('definition').filter({ hasText: 'No budget this year' }).waitFor();

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Lost reason', { exact: true }).fill('No budget until 2027');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('definition').filter({ hasText: 'No budget until 2027' }).waitFor();
    expect((await suite.api.get(`/v1/deals/${deal.id}`)).body).toMatchObject({ stage: 'lost', lost_reason: 'No budget until 2027' });
    await page.context().close();
  });
});

describe('invoices', () => {
  it('creates a draft with line items and a live total, sends it (payment link and mail), and voids only after confirming', async () => {
    const client = (await suite.api.post('/v1/clients', { name: 'Hollerith Tabulating', email: 'ap@hollerith.example' })).body;
    const deal = (await suite.api.post('/v1/deals', { title: 'Census 1890', value: 1140, currency: 'EUR', stage: 'negotiation', client_id: client.id })).body;
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/invoices`);
    await page.getByRole('button', { name: 'New invoice' }).click();
    const form = page.getByRole('dialog', { name: 'New invoice' });
    await form.getByLabel('Client', { exact: true }).selectOption({ label: 'Hollerith Tabulating' });
    await form.getByLabel('Deal', { exact: true }).selectOption({ label: 'Census 1890' });
    await form.getByLabel('Due date', { exact: true }).fill('2030-01-31');
    await form.getByLabel('Line 1 description').fill('Tabulator rental');
    await form.getByLabel('Line 1 quantity').fill('0');
    await form.getByLabel('Line 1 unit price').fill('120');
    await form.getByRole('button', { name: 'Add line' }).click();
    await form.getByLabel('Line 2 description').fill('Punch cards');
    await form.getByLabel('Line 2 quantity').fill('2');
    await form.getByLabel('Line 2 unit price').fill('450');
    await form.getByRole('button', { name: 'Create invoice' }).click();
    // The error names line_items.0.quantity: it shows beside that input.
    const quantity = form.getByLabel('Line 1 quantity');
    await expect.poll(() => quantity.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`[id="${await quantity.getAttribute('aria-describedby')}"]`).textContent()).toMatch(/>\s*0|too small|positive/i);
    await quantity.fill('3');
    await form.getByTestId('form-total').filter({ hasText: '€1,260.00' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create invoice' }).click();

    const number = page.getByRole('heading', { level: 1 });
    await number.filter({ hasText: /^INV-\d{6}$/ }).waitFor();
    const id = idFromUrl(page.url());
    let invoice = (await suite.api.get(`/v1/invoices/${id}`)).body;
    expect(invoice).toMatchObject({ status: 'draft', client_id: client.id, deal_id: deal.id, currency: 'EUR', due_date: '2030-01-31', total: 1260 });
    expect(invoice.line_items).toMatchObject([
      { description: 'Tabulator rental', quantity: 3, unit_price: 120, amount: 360 },
      { description: 'Punch cards', quantity: 2, unit_price: 450, amount: 900 },
    ]);
    await page.locator('.page-header').getByText('Draft', { exact: true }).waitFor();
    await page
      .getByRole('definition')
      .filter({ hasText: /^€1,260.00$/ })
      .waitFor();
    await page.getByRole('cell', { name: 'Punch cards' }).waitFor();

    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').filter({ hasText: 'was sent to ap@hollerith.example' }).waitFor();
    invoice = (await suite.api.get(`/v1/invoices/${id}`)).body;
    expect(invoice.status).toBe('open');
    await page.getByRole('link', { name: invoice.payment_link }).waitFor();
    await page.getByRole('region', { name: 'Mailbox messages for this invoice' }).getByText(invoice.payment_link, { exact: false }).waitFor();
    await page.getByRole('list', { name: 'Events of this invoice, newest first' }).getByRole('listitem').first().filter({ hasText: 'Sent' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Void' }).click();
    const dialog = page.getByRole('dialog', { name: `Void the invoice ${invoice.number}?` });
    expect(await dialog.textContent()).toContain('cannot be undone');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await suite.api.get(`/v1/invoices/${id}`)).body.status).toBe('open');
    await page.getByRole('button', { name: 'Void' }).click();
    await dialog.getByRole('button', { name: 'Void invoice' }).click();
    // The status badge, in the title: the header's actions have a Void button, which matched at once.
    await page.locator('.page-header .title').getByText('Void', { exact: true }).waitFor();
    expect((await suite.api.get(`/v1/invoices/${id}`)).body.status).toBe('void');
    expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(0);
    await page.context().close();
  }, 90_000);

  it('shows an open invoice past its due date as overdue, in the list (by client name) and on its page', async () => {
    const client = (await suite.api.post('/v1/clients', { name: 'Late Payers GmbH', email: 'ap@late.example' })).body;
    const invoice = (
      await suite.api.post('/v1/invoices', {
        client_id: client.id,
        currency: 'JPY',
        due_date: '2020-01-01',
        line_items: [{ description: 'Old work', quantity: 1, unit_price: 2717000 }],
      })
    ).body;
    expect(invoice.status).toBe('open');
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/invoices?client_id=${client.id}`);
    const row = page.getByRole('row').filter({ hasText: invoice.number });
    await row.getByText('Overdue').waitFor();
    // The client's name comes from the page's one ?ids= request, after the row itself.
    await row.getByRole('link', { name: 'Late Payers GmbH' }).waitFor();
    expect(await row.getByRole('link', { name: 'Late Payers GmbH' }).count()).toBe(1);
    expect(await row.textContent()).toContain('¥2,717,000');
    expect(await row.textContent()).not.toContain(client.id);
    // The filter names the client too.
    expect(await page.getByLabel('Client', { exact: true }).locator('option:checked').textContent()).toBe('Late Payers GmbH');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await row.getByRole('link', { name: invoice.number }).click();
    await page.locator('.page-header').getByText('Overdue', { exact: true }).waitFor();
    await page.context().close();
  }, 90_000);
});
