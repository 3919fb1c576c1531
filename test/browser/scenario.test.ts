import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dialogs, useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * The records' "done when" (docs/dashboard.md#pages), as one person would do it, entirely in the browser: a client with two
 * contacts, a lead converted into a second client, three deals moved through the pipeline (dragged,
 * and by the Move to menu) with one won, an invoice sent and paid on its payment page — while the
 * Events page, open in a second tab, shows the events arrive. Every effect is then read back
 * through the API.
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

const idFromUrl = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').at(-1)!);

async function createFromList(
  page: Page,
  list: string,
  button: string,
  fill: (form: ReturnType<Page['getByRole']>) => Promise<void>,
  submit: string,
): Promise<string> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: list, exact: true }).click();
  await page.getByRole('button', { name: button }).click();
  const form = page.getByRole('dialog', { name: button });
  await fill(form);
  await form.getByRole('button', { name: submit }).click();
  await form.waitFor({ state: 'detached', timeout: 10_000 }).catch(async (error: Error) => {
    throw new Error(`${button}: the form stayed open: ${await form.textContent()}`, { cause: error });
  });
  return idFromUrl(page.url());
}

async function addContact(page: Page, client: string, first: string, last: string, email: string) {
  await page.getByRole('button', { name: 'Add contact' }).click();
  const dialog = page.getByRole('dialog', { name: `Add a contact person to ${client}` });
  await dialog.getByLabel('First name', { exact: true }).fill(first);
  await dialog.getByLabel('Last name', { exact: true }).fill(last);
  await dialog.getByLabel('Email', { exact: true }).fill(email);
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await page
    .getByRole('table', { name: `Contact persons of ${client}` })
    .getByRole('cell', { name: new RegExp(`^${first} ${last}`) })
    .waitFor();
}

describe('a realistic scenario, set up entirely in the browser', () => {
  it('two clients (one from a converted lead), three deals through the pipeline with one won, an invoice sent and paid; the events arrive live', async () => {
    const page = await suite.signedIn();
    await page.setViewportSize({ width: 1440, height: 900 });
    // A second tab on the Events page, watching.
    const watcher = await page.context().newPage();
    await watcher.goto(`${suite.sandbox.baseUrl}/dashboard/events`);
    const liveEvents = watcher.getByRole('table', { name: 'Events, newest first (live)' });
    await liveEvents.waitFor();
    // Back to the working tab: Chromium throttles animation frames in a background one, and every
    // click waits for two of them.
    await page.bringToFront();

    // A client with two contact persons.
    const clientId = await createFromList(
      page,
      'Clients',
      'New client',
      async (form) => {
        await form.getByLabel('Name', { exact: true }).fill('Lovelace Analytics');
        await form.getByLabel('Email', { exact: true }).fill('accounts@lovelace.example');
      },
      'Create client',
    );
    await page.getByRole('heading', { name: 'Lovelace Analytics', level: 1 }).waitFor();
    await addContact(page, 'Lovelace Analytics', 'Ada', 'King', 'ada@lovelace.example');
    await addContact(page, 'Lovelace Analytics', 'Charles', 'Babbage', 'charles@lovelace.example');

    // A lead, converted into a second client.
    const leadId = await createFromList(
      page,
      'Leads',
      'New lead',
      async (form) => {
        await form.getByLabel('First name', { exact: true }).fill('Grace');
        await form.getByLabel('Last name', { exact: true }).fill('Hopper');
        await form.getByLabel('Company', { exact: true }).fill('Hopper Compilers');
        await form.getByLabel('Email', { exact: true }).fill('grace@compilers.example');
      },
      'Create lead',
    );
    await page.getByRole('button', { name: 'Convert' }).click();
    await page.getByRole('dialog', { name: 'Convert Grace Hopper to a client' }).getByRole('button', { name: 'Convert to client' }).click();
    await page.getByRole('status').filter({ hasText: 'Converted' }).waitFor();

    // Three deals, created in the first stage.
    const titles = ['Engine pilot', 'Compiler licence', 'Notes translation'];
    const clients = ['Lovelace Analytics', 'Hopper Compilers', 'Lovelace Analytics'];
    const dealIds: string[] = [];
    for (const [i, title] of titles.entries()) {
      dealIds.push(
        await createFromList(
          page,
          'Deals',
          'New deal',
          async (form) => {
            await form.getByLabel('Title', { exact: true }).fill(title);
            await form.getByLabel('Value', { exact: true }).fill(String(1000 * (i + 1)));
            await form.getByLabel('Currency', { exact: true }).selectOption('EUR');
            await form.getByLabel('Stage', { exact: true }).selectOption({ label: 'Lead in' });
            await form.getByLabel('Client', { exact: true }).selectOption({ label: clients[i]! });
          },
          'Create deal',
        ),
      );
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    }

    // Through the pipeline on the board: two dragged, one won with the Move to menu.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deals', exact: true }).click();
    await page.getByRole('button', { name: 'Board' }).click();
    const column = (name: string) => page.getByRole('region', { name, exact: true });
    const card = (stage: string, title: string) =>
      column(stage)
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: title, exact: true }) });
    // A moved card shows in its new column at once, but stays busy (not draggable) until the API
    // has the move: wait for that, as a user would, before the next drag (under load the first
    // move's answer could come after the second drag had started, which then did nothing).
    const moved = async (stage: string, title: string) => {
      await card(stage, title).waitFor();
      await page.locator('.board[aria-busy="false"]').waitFor();
    };
    await card('Lead in', 'Engine pilot').dragTo(column('Qualified'));
    await moved('Qualified', 'Engine pilot');
    await card('Qualified', 'Engine pilot').dragTo(column('Proposal'));
    await moved('Proposal', 'Engine pilot');
    await card('Lead in', 'Notes translation').dragTo(column('Negotiation'));
    await moved('Negotiation', 'Notes translation');
    await card('Lead in', 'Compiler licence').getByRole('button', { name: 'Move to' }).click();
    await page.getByRole('menu', { name: 'Move to' }).getByRole('menuitem', { name: 'Won' }).click();
    await card('Won', 'Compiler licence').waitFor();

    // An invoice for the won deal's client, sent, then paid on its payment page.
    const invoiceId = await createFromList(
      page,
      'Invoices',
      'New invoice',
      async (form) => {
        await form.getByLabel('Client', { exact: true }).selectOption({ label: 'Hopper Compilers' });
        await form.getByLabel('Deal', { exact: true }).selectOption({ label: 'Compiler licence' });
        await form.getByLabel('Due date', { exact: true }).fill('2030-01-31');
        await form.getByLabel('Line 1 description').fill('Compiler licence, one year');
        await form.getByLabel('Line 1 quantity').fill('1');
        await form.getByLabel('Line 1 unit price').fill('2000');
      },
      'Create invoice',
    );
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').filter({ hasText: 'was sent to grace@compilers.example' }).waitFor();
    const link = (await suite.api.get(`/v1/invoices/${invoiceId}`)).body.payment_link as string;
    await page.getByRole('link', { name: link }).click();
    await page.getByRole('button', { name: 'Pay €2,000.00' }).click();
    await page.getByText('paid', { exact: false }).first().waitFor();

    // The watcher saw the events arrive without a reload, the newest on top.
    await liveEvents.getByRole('row').filter({ hasText: 'invoice.paid' }).first().waitFor();
    await liveEvents.getByRole('row').filter({ hasText: 'deal.won' }).first().waitFor();

    // What the browser did, read back through the API.
    const client = (await suite.api.get(`/v1/clients/${clientId}`)).body;
    expect(client.contacts.map((c: { email: string }) => c.email).sort()).toEqual(['ada@lovelace.example', 'charles@lovelace.example']);
    const lead = (await suite.api.get(`/v1/leads/${leadId}`)).body;
    expect(lead.status).toBe('converted');
    const converted = (await suite.api.get(`/v1/clients/${lead.converted_client_id}`)).body;
    expect(converted.name).toBe('Hopper Compilers');
    const deals = await Promise.all(dealIds.map(async (id) => (await suite.api.get(`/v1/deals/${id}`)).body));
    expect(deals.map((d) => [d.title, d.stage, d.client_id])).toEqual([
      ['Engine pilot', 'proposal', clientId],
      ['Compiler licence', 'won', converted.id],
      ['Notes translation', 'negotiation', clientId],
    ]);
    const won = (await suite.api.get(`/v1/events?type=deal.won&object_id=${dealIds[1]}`)).body.data;
    expect(won).toHaveLength(1);
    const invoice = (await suite.api.get(`/v1/invoices/${invoiceId}`)).body;
    expect(invoice).toMatchObject({ status: 'paid', client_id: converted.id, deal_id: dealIds[1], total: 2000, currency: 'EUR' });
    expect((await suite.api.get(`/v1/events?type=invoice.paid&object_id=${invoiceId}`)).body.data).toHaveLength(1);
    expect(dialogs.get(page)).toEqual([]);
    await page.context().close();
  }, 120_000);
});
