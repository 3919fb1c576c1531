import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCrm } from '../helpers/cli-process.js';
import { startSandboxProcess, tempDir, type RunningSandbox } from '../helpers/sandbox.js';

/**
 * Several sandboxes started from one folder (docs/sandbox.md, "Several sandboxes in one folder"):
 * .crm/sandbox.json keeps one entry per database with its pid; commands use the live default,
 * a second sandbox never takes the first one's place, a stopped one is said to be stopped, and a
 * start on a busy port creates nothing.
 */
const folder = tempDir('crm-folder-');
const config = tempDir('crm-folder-config-');
const env = { CRM_API_KEY: '', CRM_BASE_URL: '', CRM_PROFILE: '', XDG_CONFIG_HOME: config.path };
const crm = (args: string[]) => runCrm(args, env, { cwd: folder.path });
const who = async () => JSON.parse((await crm(['whoami', '--json'])).stdout) as { base_url: string; source: string };
const file = () => JSON.parse(readFileSync(join(folder.path, '.crm', 'sandbox.json'), 'utf8'));
const started: RunningSandbox[] = [];
const start = async (db: string) => {
  const sandbox = await startSandboxProcess(['--no-seed'], { db: join(folder.path, db), cwd: folder.path, env });
  started.push(sandbox);
  return sandbox;
};

afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  folder.remove();
  config.remove();
});

describe('sandboxes in one folder', () => {
  it('a second sandbox (other --db) is recorded beside the first and does not take its place', async () => {
    const first = await start('.crm/sandbox.db');
    const second = await start('other.db');
    expect(second.stderr()).toContain(`the sandbox on ${first.baseUrl}`);
    expect(second.stderr()).toContain(`--base-url ${second.baseUrl}`);
    expect(await who()).toMatchObject({ base_url: first.baseUrl, source: 'sandbox-file' });
    const saved = file();
    expect(saved.default_db).toBe(join(folder.path, '.crm', 'sandbox.db'));
    expect(saved.sandboxes.map((s: { base_url: string }) => s.base_url).sort()).toEqual([first.baseUrl, second.baseUrl].sort());

    // The second stops: commands still reach the first, which still runs.
    expect(await second.stop()).toBe(0);
    expect(file().sandboxes.find((s: { db: string }) => s.db.endsWith('other.db')).pid).toBeNull();
    expect(await who()).toMatchObject({ base_url: first.baseUrl });
    const keys = await crm(['keys', 'list', '--json']);
    expect(keys.code, keys.stderr).toBe(0);

    // The first stops too: commands say that nothing runs here, and what to do.
    expect(await first.stop()).toBe(0);
    const none = await crm(['keys', 'list']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No sandbox started in this folder is running');
    expect(none.stderr).toContain('crm sandbox start');
    expect(none.stderr.match(/error:/g)).toHaveLength(1);
    // Naming a server makes the folder's file moot: no key for it is a usage error, as anywhere.
    const named = await crm(['--base-url', first.baseUrl, 'keys', 'list']);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('crm login --base-url URL --api-key KEY');

    // Restarting the first database refreshes its entry: new port, the key it had.
    const again = await start('.crm/sandbox.db');
    expect(again.apiKey).toBeNull(); // made on the first start, so not printed again
    expect(await who()).toMatchObject({ base_url: again.baseUrl, source: 'sandbox-file' });
    expect((await crm(['keys', 'list', '--json'])).code).toBe(0);
    await again.stop();
  });

  it('a sandbox killed without a clean stop is seen as stopped (its pid is gone)', async () => {
    const killed = await start('killed.db');
    expect(await who()).toMatchObject({ base_url: killed.baseUrl });
    await killed.stop('SIGKILL');
    expect(file().sandboxes.find((s: { db: string }) => s.db.endsWith('killed.db')).pid).toBeTypeOf('number'); // nobody marked it
    const res = await crm(['keys', 'list']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('No sandbox started in this folder is running');
  });

  it('a start on a busy port creates nothing: no database, no entry', async () => {
    const running = await start('.crm/sandbox.db');
    const port = new URL(running.baseUrl).port;
    const before = readFileSync(join(folder.path, '.crm', 'sandbox.json'), 'utf8');
    const res = await crm(['sandbox', 'start', '--port', port, '--db', 'busy/other.db', '--json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).error.message).toContain(`Port ${port} is in use`);
    expect(existsSync(join(folder.path, 'busy'))).toBe(false);
    expect(readFileSync(join(folder.path, '.crm', 'sandbox.json'), 'utf8')).toBe(before);
    await running.stop();
  });
});

describe('usage errors', () => {
  it('an unknown scope is a usage error: exit 2, said once, nothing sent', async () => {
    const res = await crm(['keys', 'create', '--name', 'x', '--scopes', 'leads:reed', '--api-key', 'crm_test_unused', '--base-url', 'http://127.0.0.1:9']);
    expect(res.code).toBe(2);
    expect(res.stderr.match(/error:/g)).toHaveLength(1);
    expect(res.stderr).toContain('did you mean leads:read?');
  });

  it.each([
    [['webhooks', 'create', '--url', 'notaurl'], 'Expected a URL'],
    [['listen', '--forward-to', 'ftp://x'], 'Expected an http or https URL'],
    [['sandbox', 'clock', 'advance', '7x'], 'Expected a duration like 7d'],
    [['sandbox', 'clock', 'set', 'tomorrow'], 'Expected a day such as 2026-12-31'],
    [['keys', 'create', '--name', 'x', '--expires-at', 'tomorrow'], 'Expected an RFC 3339 time'],
  ])('crm %j is a usage error: exit 2, said once', async (args, message) => {
    const res = await crm([...args, '--api-key', 'crm_test_unused', '--base-url', 'http://127.0.0.1:9']);
    expect(res.code).toBe(2);
    expect(res.stderr.match(/error:/g)).toHaveLength(1);
    expect(res.stderr).toContain(message);
  });

  it('an unknown event type for a webhook endpoint too', async () => {
    const res = await crm(['webhooks', 'create', '--url', 'http://localhost:3000/hooks', '--events', 'deal.wonn', '--api-key', 'crm_test_unused']);
    expect(res.code).toBe(2);
    expect(res.stderr.match(/error:/g)).toHaveLength(1);
    expect(res.stderr).toContain('did you mean deal.won?');
  });
});
