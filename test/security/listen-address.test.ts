import { describe, expect, it } from 'vitest';
import { rawRequest, signIn } from '../helpers/dashboard.js';
import { spawnCrm } from '../helpers/cli-process.js';
import { apiClient, startSandboxProcess, tempDir } from '../helpers/sandbox.js';

/**
 * A low-severity finding (docs/security.md): `crm sandbox start --host 0.0.0.0` put the sandbox (its keys, webhook secrets and
 * payment links, over plain HTTP) on the network without a word, and printed 127.0.0.1 as if it
 * were local. It now warns on stderr, says where it listens and how others reach it, and keeps a
 * base URL that works from this machine; --json stays one line on stdout. Only 127.0.0.1 is
 * connected to here.
 */
const WARNING = /warning: the sandbox listens on 0\.0\.0\.0:(\d+) \(every network interface\), so other machines can reach it/;

describe('crm sandbox start --host 0.0.0.0', () => {
  it('--json: one line on stdout with a base URL that works here and where it listens; the warning on stderr', async () => {
    const sandbox = await startSandboxProcess(['--host', '0.0.0.0']);
    const port = new URL(sandbox.baseUrl).port;
    let stdout = '';
    sandbox.process.stdout!.on('data', (c) => (stdout += c));
    try {
      expect(sandbox.baseUrl).toBe(`http://127.0.0.1:${port}`);
      expect((await apiClient(sandbox).get('/v1/deals?limit=1')).status).toBe(200);

      // The Host check (DNS rebinding) still lets the local user in, and still keeps foreign names out.
      const cookie = await signIn(sandbox.baseUrl, sandbox.dashboardUrl);
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
        expect((await rawRequest(sandbox.baseUrl, 'GET', '/dashboard/', { host })).status, host).toBe(200);
        expect((await rawRequest(sandbox.baseUrl, 'GET', '/dashboard/session', { host, cookie, 'x-crm-dashboard': '1' })).status, host).toBe(200);
      }
      expect((await rawRequest(sandbox.baseUrl, 'GET', '/dashboard/', { host: `rebind.example:${port}` })).status).toBe(421);
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
    // Nothing after the ready line on stdout (the helper read that line): the warning is stderr's.
    expect(stdout).toBe('');
    const stderr = sandbox.stderr();
    expect(stderr).toMatch(WARNING);
    expect(WARNING.exec(stderr)![1]).toBe(port);
    expect(stderr).toContain('--host 127.0.0.1');
    expect(stderr).not.toContain('crm_test_'); // no secret on stderr
  });

  it('--json reports listening_on: 0.0.0.0 with the port', async () => {
    const dir = tempDir();
    // In its own folder: a start writes .crm/sandbox.json where it runs.
    const crm = spawnCrm(['sandbox', 'start', '--host', '0.0.0.0', '--port', '0', '--json', '--db', `${dir.path}/sandbox.db`], {}, process.execPath, dir.path);
    try {
      const ready = JSON.parse(await crm.waitForLine((line) => line.startsWith('{')));
      expect(ready.listening_on).toBe(`0.0.0.0:${new URL(ready.base_url).port}`);
      expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await crm.stop();
      dir.remove();
    }
    expect(crm.lines).toHaveLength(1);
  });

  it('in human mode the warning is on stderr too, not among the ready lines', async () => {
    const dir = tempDir();
    const crm = spawnCrm(['sandbox', 'start', '--host', '0.0.0.0', '--port', '0', '--db', `${dir.path}/sandbox.db`], {}, process.execPath, dir.path);
    try {
      await crm.waitForLine((line) => line.includes('Ctrl+C'));
    } finally {
      await crm.stop();
      dir.remove();
    }
    expect(crm.stderr()).toMatch(WARNING);
    expect(crm.lines.join('\n')).not.toMatch(/warning/);
  });
});

describe('crm sandbox start on 127.0.0.1 (the default)', () => {
  it('prints no warning', async () => {
    const sandbox = await startSandboxProcess([]);
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await sandbox.stop()).toBe(0);
    expect(sandbox.stderr()).not.toMatch(/warning/);
  });
});
