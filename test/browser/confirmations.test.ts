import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/sandbox.js';
import { seriousAxeViolations, useBrowser, type BrowserSuite } from '../helpers/browser.js';

/**
 * Nothing destructive on one click (docs/dashboard.md#pages): every destructive action on the developer pages
 * asks in a dialog naming what is lost; cancelling changes nothing (checked through the API);
 * revoking the key the session uses, or the last admin key, says so and needs the key's name typed.
 */
let suite: BrowserSuite;
useBrowser([], (s) => (suite = s));

/** A fresh browser signed in by pasting an API key (the session carries that key). */
async function signedInWith(secret: string): Promise<Page> {
  const page = await (await suite.context()).newPage();
  await page.goto(`${suite.sandbox.baseUrl}/dashboard/api-keys`);
  await page.getByLabel('API key').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
  return page;
}

const focusInDialog = (page: Page) => page.evaluate<boolean>("Boolean(document.activeElement?.closest('dialog[open]'))");

describe('revoking API keys', () => {
  it("revoking the session's own key says so and works only once its name is typed", async () => {
    const made = (await suite.api.post('/v1/api_keys', { name: 'my session key', scopes: ['keys:write'] })).body;
    const page = await signedInWith(made.secret);
    await page.getByRole('button', { name: 'Revoke my session key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the API key my session key?' });
    expect(await dialog.getByRole('note').textContent()).toContain('the key this session signed in with');
    const confirm = dialog.getByRole('button', { name: 'Revoke key' });
    const typed = dialog.getByLabel('Type my session key to confirm');
    expect(await confirm.isDisabled()).toBe(true);
    expect(await focusInDialog(page)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The focus stays in the dialog, whichever way Tab goes.
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(await focusInDialog(page), key).toBe(true);
    }
    // Almost the name is not the name: Enter does nothing, the key still works.
    await typed.fill('my session ke');
    await typed.press('Enter');
    expect(await confirm.isDisabled()).toBe(true);
    expect((await suite.api.get(`/v1/api_keys/${made.id}`)).body.revoked_at).toBeNull();

    await typed.fill('my session key');
    await confirm.click();
    // The session ended with its key: the sign-in form is back, and the key is refused.
    await page.getByLabel('API key').waitFor();
    expect((await suite.api.get(`/v1/api_keys/${made.id}`)).body.revoked_at).not.toBeNull();
    const use = await fetch(`${suite.sandbox.baseUrl}/v1/api_keys`, { headers: { authorization: `Bearer ${made.secret}` } });
    expect(use.status).toBe(401);
    await page.context().close();
  }, 90_000);

  it('revoking the last admin key says so and needs its name; another key only asks', async () => {
    const account = (await suite.api.post('/_sandbox/accounts', { name: 'confirmations', seed: null })).body;
    const accountApi = apiClient({ baseUrl: suite.sandbox.baseUrl, apiKey: account.api_key });
    const [admin] = (await accountApi.get('/v1/api_keys')).body.data;
    const second = (await accountApi.post('/v1/api_keys', { name: 'second admin', scopes: ['*'] })).body;
    // An app it registered outlives it: the confirmation names the app.
    const app = (
      await apiClient({ baseUrl: suite.sandbox.baseUrl, apiKey: second.secret }).post('/v1/oauth_apps', {
        name: 'Orphaned Integration',
        redirect_uris: ['http://127.0.0.1:9/cb'],
        scopes: ['leads:read'],
      })
    ).body;
    expect(app.registered_by).toBe(second.id);
    const page = await signedInWith(account.api_key);

    // Not the session's key, and another admin key remains: a plain confirmation.
    await page.getByRole('button', { name: 'Revoke second admin' }).click();
    let dialog = page.getByRole('dialog', { name: 'Revoke the API key second admin?' });
    expect(await dialog.getByRole('note').count()).toBe(0);
    expect(await dialog.textContent()).toContain('It registered the OAuth app Orphaned Integration, which keeps working');
    expect(await dialog.getByLabel(/^Type .* to confirm$/).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The dialog closes before the revoke request is answered: wait for the API, not the page.
    await expect.poll(async () => (await accountApi.get(`/v1/api_keys/${second.id}`)).body.revoked_at).not.toBeNull();

    // Now the admin key is both this session's and the last admin key: both are said, the name is required.
    await page.getByRole('button', { name: `Revoke ${admin.name}` }).click();
    dialog = page.getByRole('dialog', { name: `Revoke the API key ${admin.name}?` });
    const note = (await dialog.getByRole('note').textContent())!;
    expect(note).toContain('signed in with');
    expect(note).toContain('last active admin (*) key');
    expect(await dialog.getByRole('button', { name: 'Revoke key' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await accountApi.get(`/v1/api_keys/${admin.id}`)).body.revoked_at).toBeNull();
    await page.context().close();
  }, 90_000);
});

describe('the other destructive actions ask first', () => {
  it('webhooks: Delete and Rotate secret change nothing until confirmed', async () => {
    const hook = (await suite.api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/confirm-hook', description: 'confirm me' })).body;
    const rotations = async () =>
      (await suite.api.get(`/v1/request_logs?method=POST&path_prefix=/v1/webhook_endpoints/${hook.id}/rotate_secret`)).body.data.length as number;
    const page = await suite.signedIn();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const row = page.getByRole('row').filter({ hasText: 'http://127.0.0.1:9/confirm-hook' });

    await row.getByRole('button', { name: 'Rotate secret' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret of http://127.0.0.1:9/confirm-hook?' });
    expect(await rotate.textContent()).toContain('24 hours');
    await rotate.getByRole('button', { name: 'Cancel' }).click();
    expect(await rotations()).toBe(0);
    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('status').filter({ hasText: 'whsec_' }).waitFor();
    expect(await rotations()).toBe(1);
    const overlapping = (await suite.api.get(`/v1/webhook_endpoints/${hook.id}`)).body;
    expect(overlapping.previous_secret_expires_at).toEqual(expect.any(String));
    // A leaked secret: the dialog's checkbox rotates with expire_old, and the old secret stops signing.
    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await rotate.getByRole('checkbox', { name: 'The current secret leaked: stop signing with it now' }).check();
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    await rotate.waitFor({ state: 'detached' });
    await expect.poll(rotations).toBe(2);
    expect((await suite.api.get(`/v1/webhook_endpoints/${hook.id}`)).body.previous_secret_expires_at).toBeNull();

    await row.getByRole('button', { name: 'Delete' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete the webhook endpoint http://127.0.0.1:9/confirm-hook?' });
    expect(await remove.textContent()).toContain('delivery history');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await remove.waitFor({ state: 'detached' });
    expect((await suite.api.get(`/v1/webhook_endpoints/${hook.id}`)).status).toBe(200);
    await row.getByRole('button', { name: 'Delete' }).click();
    await remove.getByRole('button', { name: 'Delete endpoint' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await suite.api.get(`/v1/webhook_endpoints/${hook.id}`)).status).toBe(404);
    await page.context().close();
  }, 90_000);

  it('OAuth apps, reset and snapshot restore: cancelling keeps everything', async () => {
    const app = (await suite.api.post('/v1/oauth_apps', { name: 'keep this app', redirect_uris: ['http://127.0.0.1:9/cb'], scopes: ['leads:read'] })).body;
    const page = await suite.signedIn();
    await page.getByRole('link', { name: 'OAuth apps' }).click();
    await page.getByRole('button', { name: 'Delete keep this app' }).click();
    const appDialog = page.getByRole('dialog', { name: 'Delete the OAuth app keep this app?' });
    expect(await appDialog.textContent()).toContain('revoked at once');
    await appDialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await suite.api.get('/v1/oauth_apps')).body.data.map((a: { id: string }) => a.id)).toContain(app.id);

    await page.getByRole('link', { name: 'Sandbox' }).click();
    await page.getByLabel('Snapshot name').fill('before-cancel');
    await page.getByRole('button', { name: 'Save snapshot' }).click();
    await page.getByRole('cell', { name: 'before-cancel', exact: true }).waitFor();
    const lead = (await suite.api.post('/v1/leads', { first_name: 'Made after the snapshot' })).body;

    await page.getByRole('button', { name: 'Restore before-cancel' }).click();
    const restore = page.getByRole('dialog', { name: 'Restore the snapshot before-cancel?' });
    expect(await restore.textContent()).toContain('everything changed since is lost');
    await restore.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Reset sandbox' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset the sandbox?' });
    expect(await reset.textContent()).toContain('API keys, OAuth apps and webhook endpoints stay');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await reset.getByRole('button', { name: 'Cancel' }).click();
    await reset.waitFor({ state: 'detached' });
    expect((await suite.api.get(`/v1/leads/${lead.id}`)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete before-cancel' }).click();
    await page.getByRole('dialog', { name: 'Delete the snapshot before-cancel?' }).getByRole('button', { name: 'Delete snapshot' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'before-cancel', exact: true }).count()).toBe(0);
    await page.context().close();
  }, 90_000);
});

describe('keys by name', () => {
  it('the request log and the usage report name the key, not its id', async () => {
    const bot = (await suite.api.post('/v1/api_keys', { name: 'reporting bot', scopes: ['leads:read'] })).body;
    expect((await fetch(`${suite.sandbox.baseUrl}/v1/leads?limit=1`, { headers: { authorization: `Bearer ${bot.secret}` } })).status).toBe(200);
    const page = await suite.signedIn();
    await page.goto(`${suite.sandbox.baseUrl}/dashboard/logs?method=GET&path_prefix=/v1/leads`);
    const row = page.getByRole('row').filter({ hasText: 'reporting bot' });
    await row.first().waitFor();
    expect(await page.getByRole('table').first().textContent()).not.toContain(bot.id);
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('table', { name: 'Today by key' }).getByRole('rowheader', { name: 'reporting bot' }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('table', { name: 'Today by key' }).textContent()).not.toContain(bot.id);
    await page.context().close();
  }, 90_000);
});
