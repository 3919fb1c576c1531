import { lstatSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrm, spawnCrm } from '../helpers/cli-process.js';
import { apiClient, startSandboxProcess, tempDir } from '../helpers/sandbox.js';

/**
 * A low-severity finding (docs/security.md#what-is-stored-how): `.crm/` was 0755 and `sandbox.db` (with its -wal and -shm, the accounts' files and
 * the snapshots) 0644, though they hold webhook secrets, the cursor secret, payment tokens, API
 * keys and request bodies: any user of the machine could read them. Every folder crm creates is
 * 0700 and every file 0600, whatever the umask. Here the commands run as a user would, with the
 * usual umask (022) and with none at all (000), and every entry they left is stat'ed.
 */
let umaskBefore: number;
beforeAll(() => void (umaskBefore = process.umask()));
afterAll(() => void process.umask(umaskBefore));

/** Every folder and file under `root` (relative path → mode), and which of them are folders. */
function modes(root: string): Map<string, { mode: number; folder: boolean }> {
  const found = new Map<string, { mode: number; folder: boolean }>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      found.set(relative(root, path), { mode: lstatSync(path).mode & 0o777, folder: entry.isDirectory() });
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(root);
  return found;
}

function expectPrivate(found: Map<string, { mode: number; folder: boolean }>, expected: string[]): void {
  for (const name of expected) expect(found.has(name), name).toBe(true);
  const wrong = [...found].filter(([, { mode, folder }]) => mode !== (folder ? 0o700 : 0o600));
  expect(wrong.map(([path, { mode }]) => `${path} ${mode.toString(8)}`)).toEqual([]);
}

/** `crm sandbox start` in `home`, on the default database .crm/sandbox.db. */
const startIn = (home: string) => startSandboxProcess([], { db: join(home, '.crm', 'sandbox.db'), cwd: home });

describe.each([
  ['022', 0o022],
  ['000', 0o000],
])('under umask %s', (_name, umask) => {
  it('the sandbox: .crm/, the database with its -wal and -shm, an account’s file, snapshots, sandbox.json', async () => {
    process.umask(umask); // inherited by the processes started below
    const home = tempDir();
    const sandbox = await startIn(home.path);
    try {
      const admin = apiClient(sandbox);
      const account = await admin.post('/_sandbox/accounts', { name: 'files', plan: 'pro' });
      expect(account.status).toBe(201);
      const other = apiClient({ baseUrl: sandbox.baseUrl, apiKey: account.body.api_key });
      // Writes, so that the -wal and -shm files exist and hold data.
      expect((await other.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:1/hook' })).status).toBe(201);
      expect((await admin.post('/v1/leads', { first_name: 'Secret', email: 'secret@example.test' })).status).toBe(201);
      expect((await admin.post(`/_sandbox/accounts/${account.body.id}/snapshots`, { name: 'one' })).status).toBe(201);
      const defaultId = (await admin.get('/_sandbox/accounts')).body.data[0].id;
      expect((await admin.post(`/_sandbox/accounts/${defaultId}/snapshots`, { name: 'main' })).status).toBe(201);

      const id = account.body.id;
      expectPrivate(modes(home.path), [
        '.crm',
        '.crm/sandbox.db',
        '.crm/sandbox.db-wal',
        '.crm/sandbox.db-shm',
        '.crm/sandbox.json',
        '.crm/.gitignore',
        '.crm/sandbox.accounts',
        `.crm/sandbox.accounts/${id}.db`,
        `.crm/sandbox.accounts/${id}.db-wal`,
        `.crm/sandbox.accounts/${id}.snapshots`,
        `.crm/sandbox.accounts/${id}.snapshots/${id}-one.db`,
        '.crm/sandbox.snapshots',
        `.crm/sandbox.snapshots/${defaultId}-main.db`,
      ]);
    } finally {
      await sandbox.stop();
      home.remove();
    }
  });
});

describe('the CLI’s own files, under umask 022', () => {
  it('crm listen’s state, a login profile, an import’s results folder and an export', async () => {
    process.umask(0o022);
    const home = tempDir();
    const input = tempDir();
    const sandbox = await startIn(home.path);
    const env = { XDG_CONFIG_HOME: join(home.path, 'config') };
    const listen = spawnCrm(['listen', '--forward-to', 'http://127.0.0.1:1/hook', '--json'], env, process.execPath, home.path);
    try {
      await listen.waitForLine((line) => line.includes('"ready"'));
      const login = await runCrm(['login', '--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey, '--profile', 'files'], env, { cwd: home.path });
      expect(login.code, login.stderr).toBe(0);
      const csv = join(input.path, 'leads.csv');
      writeFileSync(csv, 'first_name,email\nAda,ada@example.test\nBad,not-an-email\n');
      const imported = await runCrm(['sync', 'import', 'leads', csv, '--results', 'import.results'], env, { cwd: home.path });
      expect(imported.code, imported.stderr).toBe(1); // one row failed: failed.csv has it
      const exported = await runCrm(['sync', 'export', 'leads', '--out', 'leads.csv'], env, { cwd: home.path });
      expect(exported.code, exported.stderr).toBe(0);
    } finally {
      await listen.stop();
      await sandbox.stop();
    }
    try {
      expectPrivate(modes(home.path), [
        '.crm/listen.json',
        'config',
        'config/crm',
        'config/crm/config.json',
        'import.results',
        'import.results/failed.csv',
        'import.results/succeeded.csv',
        'import.results/journal.jsonl',
        'leads.csv',
        'leads.csv.state.json',
      ]);
    } finally {
      home.remove();
      input.remove();
    }
  });
});
