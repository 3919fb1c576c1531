import { describe, expect, it } from 'vitest';
import { dialogs, useBrowser, type BrowserSuite } from '../helpers/browser.js';
import { startReceiver } from '../helpers/receiver.js';

/** The dashboard's user flows (docs/dashboard.md), in a real Chromium against a real sandbox process. */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

describe('sign-in', () => {
  it('signs in from the printed link, drops the token from the address bar, stays signed in on reload, signs out', async () => {
    const context = await suite.context();
    const page = await context.newPage();
    await page.goto(suite.sandbox.dashboardUrl);
    await page.getByRole('link', { name: 'Overview' }).waitFor();
    expect(page.url()).toBe(`${suite.sandbox.baseUrl}/dashboard/`);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: `crm_session_${new URL(suite.sandbox.baseUrl).port}`, httpOnly: true, sameSite: 'Strict', path: '/' });

    await page.reload();
    await page.getByRole('link', { name: 'Overview' }).waitFor();
    await page.getByRole('link', { name: 'Leads' }).click();
    await page.getByRole('heading', { name: 'Leads' }).waitFor();
    expect(page.url()).toBe(`${suite.sandbox.baseUrl}/dashboard/leads`);
    await page.reload();
    await page.getByRole('heading', { name: 'Leads' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    await page.reload();
    await page.getByLabel('API key').waitFor();
    expect(await context.cookies()).toEqual([]);

    // The printed link was single use: opening it again shows the sign-in form.
    const again = await (await suite.context()).newPage();
    await again.goto(suite.sandbox.dashboardUrl);
    await again.getByLabel('API key').waitFor();
    await context.close();
  });

  it('signs in by pasting an API key, and shows only what its scopes allow', async () => {
    const reader = await suite.api.post('/v1/api_keys', { name: 'browser reader', scopes: ['leads:read'] });
    const page = await (await suite.context()).newPage();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/deals`);
    await page.getByLabel('API key').fill(reader.body.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Deals' }).waitFor();
    await page.getByRole('alert').filter({ hasText: "lacks the scope 'deals:read'" }).waitFor();
    await page.getByRole('link', { name: 'Leads' }).click();
    await page.getByRole('table', { name: /Leads/ }).getByRole('row').nth(1).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.context().close();
  });
});

describe('API keys', () => {
  it('creates a key with the scope matrix, shows its secret once, revokes it, and the key fails', async () => {
    const page = await suite.signedIn();
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('from the browser');
    await page.getByLabel('leads write').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-secret').textContent())!;
    expect(secret).toMatch(/^crm_test_[0-9A-Za-z]{32}$/);
    await page.getByRole('button', { name: 'Copy secret' }).waitFor();
    const use = () => fetch(`${suite.sandbox.baseUrl}/v1/leads?limit=1`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await use()).status).toBe(200);
    const row = page.getByRole('row').filter({ hasText: 'from the browser' });
    await expect.poll(() => row.textContent()).toContain(`${secret.slice(0, 13)}…${secret.slice(-4)}`);
    expect(await row.textContent()).toContain('leads:write');

    // Secrets never reach web storage.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(secret);

    await page.reload();
    await page.getByRole('row').filter({ hasText: 'from the browser' }).waitFor();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Revoke from the browser' }).click();
    await page.getByRole('dialog', { name: 'Revoke the API key from the browser?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('row').filter({ hasText: 'from the browser' }).filter({ hasText: 'revoked' }).waitFor();
    expect((await use()).status).toBe(401);
    expect(dialogs.get(page)).toEqual([]);
    await page.context().close();
  });
});

describe('webhooks', () => {
  it('adds an endpoint, shows its secret once, sends a test event that arrives, lists the attempt', async () => {
    const receiver = await startReceiver();
    // The test event is the newest real event of a type the endpoint takes.
    const deal = await suite.api.post('/v1/deals', { title: 'Test event source', value: 5, currency: 'EUR', stage: 'lead_in' });
    try {
      const page = await suite.signedIn();
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByLabel('Description').fill('browser receiver');
      await page.getByLabel('deal.created').check();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/whsec_/);
      const row = page.getByRole('row').filter({ hasText: receiver.url });
      await row.getByRole('button', { name: 'Send test event' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Sent deal.created/ })
        .waitFor();
      await receiver.waitFor('the test event', () => receiver.received.some((r) => JSON.parse(r.body).data.object.id === deal.body.id));
      await row.getByRole('button', { name: 'Deliveries' }).click();
      const attempts = page
        .getByRole('table', { name: /Delivery attempts/ })
        .getByRole('row')
        .filter({ hasText: 'deal.created' });
      await attempts.filter({ hasText: 'succeeded' }).first().waitFor();
      // Resend runs through the queue again: a second delivery arrives and shows as a new attempt.
      await attempts.first().getByRole('button', { name: 'Resend' }).click();
      await receiver.waitFor('the resent event', () => receiver.received.filter((r) => JSON.parse(r.body).data.object.id === deal.body.id).length === 2);
      // The open table follows the pending attempt until it settles: no click, no reload.
      await expect.poll(() => attempts.filter({ hasText: 'succeeded' }).count(), { timeout: 15_000 }).toBe(2);
      await page.context().close();
    } finally {
      await receiver.close();
    }
  });
});

describe('events', () => {
  it('tails events live, and keeps the type filter in the URL', async () => {
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/events?type=lead.created`);
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await expect.poll(() => page.getByLabel('Type').inputValue()).toBe('lead.created');
    await page.waitForTimeout(300); // let the stream open; the test waits for the event below either way
    const lead = await suite.api.post('/v1/leads', { first_name: 'Live', last_name: 'Tail' });
    const deal = await suite.api.post('/v1/deals', { title: 'Not a lead', value: 1, currency: 'EUR', stage: 'lead_in' });
    const events = await suite.api.get(`/v1/events?type=lead.created&limit=1000`);
    const created = (events.body.data as { id: string; data: { object: { id: string } } }[]).find((e) => e.data.object.id === lead.body.id)!;
    await page.locator(`tr[data-event-id="${created.id}"]`).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('cell', { name: 'deal.created' }).count()).toBe(0);
    expect(deal.status).toBe(201);
    await page.context().close();
  });
});

describe('usage', () => {
  it('updates the live table by status class without a reload', async () => {
    const page = await suite.signedIn();
    await page.getByRole('link', { name: 'Usage' }).click();
    const table = page.getByRole('table', { name: 'Requests per second by status, last 10 seconds' });
    await table.waitFor();
    const column4xx = () => table.locator('tbody tr td:nth-of-type(2)').allTextContents();
    for (let i = 0; i < 3; i++) await suite.api.get('/v1/deals/deal_missing'); // 404s
    await expect.poll(async () => (await column4xx()).map(Number).reduce((a, b) => a + b, 0), { timeout: 8000 }).toBeGreaterThanOrEqual(3);
    await page.context().close();
  });

  it('draws the last two minutes as a chart with a time axis, a count axis and a legend that follows the data', async () => {
    const page = await suite.signedIn();
    await page.getByRole('link', { name: 'Usage' }).click();
    const chart = page.locator('.usage-chart');
    await chart.locator('canvas').waitFor();
    // uPlot draws the axes' ticks and labels on the canvas (seen in the screenshots); their boxes are in the DOM.
    expect(await chart.locator('.u-axis').count()).toBe(2);
    expect(await chart.locator('.u-legend .u-label').allTextContents()).toEqual(['Time', '2xx', '4xx', '429', '5xx']);
    // The 4xx line is drawn from the live data: hovering the last seconds shows their 404s in the legend.
    for (let i = 0; i < 3; i++) await suite.api.get('/v1/deals/deal_missing');
    const box = (await chart.locator('.u-over').boundingBox())!;
    const most4xx = async () => {
      let most = 0;
      for (let x = box.width - 1; x > box.width * 0.85; x -= box.width / 240) {
        await page.mouse.move(box.x + x, box.y + box.height / 2);
        most = Math.max(most, Number.parseInt((await page.locator('.u-legend .u-series').nth(2).locator('.u-value').textContent()) ?? '', 10) || 0);
      }
      return most;
    };
    await expect.poll(most4xx, { timeout: 8000 }).toBeGreaterThanOrEqual(1);
    await page.context().close();
  });
});

describe('one live stream', () => {
  it('opens a single /dashboard/stream for every page and never polls the API for live data', async () => {
    const page = await (await suite.context()).newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.goto(await suite.loginUrl());
    await page.getByRole('link', { name: 'Overview' }).waitFor();
    for (const name of ['Usage', 'Events', 'Overview', 'Usage']) {
      await page.getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { name, exact: true }).waitFor();
    }
    const table = page.getByRole('table', { name: 'Requests per second by status, last 10 seconds' });
    await table.waitFor();
    await page.waitForTimeout(2500); // live updates arrive each second: a poller would show here
    expect(requests.filter((p) => p.endsWith('/stream'))).toEqual(['/dashboard/stream']);
    expect(requests.filter((p) => p === '/v1/usage')).toEqual([]);
    await page.context().close();
  });
});

describe('OAuth apps', () => {
  it('registers an app, shows its secret once, deletes it, and its client can no longer get a token', async () => {
    const page = await suite.signedIn();
    await page.getByRole('link', { name: 'OAuth apps' }).click();
    await page.getByLabel('Name').fill('browser app');
    await page.getByLabel('Redirect URIs (space-separated)').fill('http://127.0.0.1:9/cb');
    await page.getByRole('button', { name: 'Register' }).click();
    const secret = (await page.getByRole('status').locator('code').textContent())!;
    expect(secret).toMatch(/^crm_cs_/);
    const row = page.getByRole('row').filter({ hasText: 'browser app' });
    const clientId = (await row.getByRole('cell').nth(1).textContent())!;
    const token = () =>
      fetch(`${suite.sandbox.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
      });
    expect((await token()).status).toBe(200);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);
    await row.getByRole('button', { name: 'Delete browser app' }).click();
    await page.getByRole('dialog', { name: 'Delete the OAuth app browser app?' }).getByRole('button', { name: 'Delete app' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await token()).status).toBe(401);
    await page.context().close();
  });
});

describe('deals board and sandbox', () => {
  it('wins and loses deals from the board', async () => {
    const won = await suite.api.post('/v1/deals', { title: 'Board winner', value: 10, currency: 'EUR', stage: 'proposal' });
    const lost = await suite.api.post('/v1/deals', { title: 'Board loser', value: 10, currency: 'EUR', stage: 'qualified' });
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/deals?view=board`);
    // With the mouse, through each card's Move to menu (test/browser/board.test.ts drags and uses the keyboard).
    const moveTo = async (title: string, stage: string, answer?: () => Promise<void>) => {
      await page
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: title }) })
        .getByRole('button', { name: 'Move to' })
        .click();
      await page.getByRole('menu', { name: 'Move to' }).getByRole('menuitem', { name: stage }).click();
      await answer?.();
      await page.getByRole('region', { name: stage, exact: true }).getByText(title).waitFor();
    };
    await moveTo('Board winner', 'Won');
    // Lost asks why first (test/browser/board.test.ts covers Cancel and the keyboard).
    await moveTo('Board loser', 'Lost', async () => {
      const dialog = page.getByRole('dialog', { name: 'Mark Board loser as lost?' });
      await dialog.getByLabel('Why was it lost? (optional)').fill('Went with a competitor');
      await dialog.getByRole('button', { name: 'Mark as lost' }).click();
    });
    expect((await suite.api.get(`/v1/deals/${won.body.id}`)).body.stage).toBe('won');
    await expect
      .poll(async () => (await suite.api.get(`/v1/deals/${lost.body.id}`)).body)
      .toMatchObject({ stage: 'lost', lost_reason: 'Went with a competitor' });
    await page.context().close();
  });

  it('shows the account and its plan, advances its clock, saves and restores a snapshot', async () => {
    const page = await suite.signedIn();
    await page.locator('.account-line').filter({ hasText: ': pro plan' }).waitFor(); // the Overview's account line
    await page.getByRole('link', { name: 'Sandbox' }).click();
    const before = (await page.getByTestId('clock-now').textContent())!;
    await page.getByLabel('Snapshot name').fill('from-browser');
    await page.getByRole('button', { name: 'Save snapshot' }).click();
    await page.getByRole('cell', { name: 'from-browser', exact: true }).waitFor();
    const lead = await suite.api.post('/v1/leads', { first_name: 'Made after the snapshot' });
    await page.getByLabel('Advance the clock by (7d, 36h, 90m)').fill('2d');
    await page.getByRole('button', { name: 'Advance clock' }).click();
    await page.getByText('48 h ahead of real time').waitFor();
    expect(Date.parse((await page.getByTestId('clock-now').textContent())!.replace(' ', 'T')) - Date.parse(before.replace(' ', 'T'))).toBeGreaterThanOrEqual(
      2 * 86_400_000 - 60_000,
    );
    await page.getByRole('button', { name: 'Restore from-browser' }).click();
    await page.getByRole('dialog', { name: 'Restore the snapshot from-browser?' }).getByRole('button', { name: 'Restore snapshot' }).click();
    await page.getByRole('status').filter({ hasText: 'Restored from-browser.' }).waitFor();
    await page.getByText('(real time)').waitFor();
    expect((await suite.api.get(`/v1/leads/${lead.body.id}`)).status).toBe(404);
    await page.getByRole('button', { name: 'Delete from-browser' }).click();
    await page.getByRole('dialog', { name: 'Delete the snapshot from-browser?' }).getByRole('button', { name: 'Delete snapshot' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'from-browser', exact: true }).count()).toBe(0);
    await page.context().close();
  });

  it('shows the mailbox, arms a fault that the API then answers, and resets', async () => {
    const client = await suite.api.post('/v1/clients', { name: 'Mailbox Co', email: 'billing@mailbox.example' });
    const invoice = await suite.api.post('/v1/invoices', {
      client_id: client.body.id,
      currency: 'EUR',
      line_items: [{ description: 'Work', quantity: 1, unit_price: 5 }],
    });
    const page = await suite.signedIn();
    // The invoice's page shows the message the sandbox sent for it.
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/invoices?client_id=${client.body.id}`);
    await page.getByRole('link', { name: invoice.body.number }).click();
    await page.getByRole('region', { name: 'Mailbox messages for this invoice' }).getByText(invoice.body.payment_link).waitFor();
    await page.getByRole('link', { name: 'Sandbox' }).click();
    await page.getByRole('cell', { name: 'billing@mailbox.example' }).waitFor();
    await page.getByLabel('Fail requests whose path starts with').fill('/v1/pipelines');
    await page.getByRole('button', { name: 'Arm fault' }).click();
    await page.getByRole('status').filter({ hasText: 'Fault armed.' }).waitFor();
    expect((await suite.api.get('/v1/pipelines')).status).toBe(503);
    expect((await suite.api.get('/v1/pipelines')).status).toBe(200);
    await page.getByRole('button', { name: 'Reset sandbox' }).click();
    await page.getByRole('dialog', { name: 'Reset the sandbox?' }).getByRole('button', { name: 'Reset sandbox' }).click();
    await page.getByRole('status').filter({ hasText: 'reset' }).waitFor();
    expect((await suite.api.get(`/v1/clients/${client.body.id}`)).status).toBe(404);
    await page.context().close();
  });
});
