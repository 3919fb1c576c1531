import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCrm } from '../helpers/cli-process.js';
import { startSandboxProcess, tempDir, type RunningSandbox } from '../helpers/sandbox.js';

/**
 * Credentials without exported variables (docs/sync.md#credentials): `crm sandbox start` leaves
 * .crm/sandbox.json in its folder, `crm login` saves profiles, and the precedence is
 * flags, variables, --profile/CRM_PROFILE, the sandbox file, the default profile.
 */
const project = tempDir('crm-cred-project-');
const elsewhere = tempDir('crm-cred-elsewhere-');
const config = tempDir('crm-cred-config-');
// No variable from the test runner's shell leaks in; each run names its own config folder.
const env = { CRM_API_KEY: '', CRM_BASE_URL: '', CRM_PROFILE: '', XDG_CONFIG_HOME: config.path };
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandboxProcess(['--no-seed'], { db: join(project.path, '.crm', 'sandbox.db'), cwd: project.path });
});
afterAll(async () => {
  await sandbox?.stop();
  project.remove();
  elsewhere.remove();
  config.remove();
});

describe('crm sandbox start', () => {
  it('writes .crm/sandbox.json, readable by its owner only', () => {
    const path = join(project.path, '.crm', 'sandbox.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    // One entry per database, with the pid that serves it (docs/sandbox.md, "Several sandboxes in one folder").
    expect(saved).toMatchObject({ version: 2, default_db: join(project.path, '.crm', 'sandbox.db') });
    expect(saved.sandboxes).toEqual([
      {
        db: join(project.path, '.crm', 'sandbox.db'),
        base_url: sandbox.baseUrl,
        api_key: sandbox.apiKey,
        pid: sandbox.process.pid,
        started_at: expect.any(String),
      },
    ]);
  });

  it('lets trigger, keys list and sync export work in its folder with nothing exported', async () => {
    const trigger = await runCrm(['trigger', 'deal.won', '--json'], env, { cwd: project.path });
    expect(trigger.stderr).toBe('');
    expect(trigger.code).toBe(0);
    const keys = await runCrm(['keys', 'list', '--json'], env, { cwd: project.path });
    expect(keys.code).toBe(0);
    expect(JSON.parse(keys.stdout).data.length).toBeGreaterThanOrEqual(1);
    const exported = await runCrm(['sync', 'export', 'leads'], env, { cwd: project.path });
    expect(exported.code).toBe(0);
    expect(exported.stdout.split('\n')[0]).toContain('email');
  });

  it('a restart of the same database (key not shown again) keeps the key and takes the new URL', async () => {
    const db = join(project.path, 'restart', 'sandbox.db');
    const cwd = join(project.path, 'restart');
    const first = await startSandboxProcess(['--no-seed'], { db, cwd });
    await first.stop();
    const second = await startSandboxProcess(['--no-seed'], { db, cwd });
    try {
      expect(second.apiKey).toBeNull();
      const saved = JSON.parse(readFileSync(join(cwd, '.crm', 'sandbox.json'), 'utf8'));
      expect(saved.sandboxes).toEqual([expect.objectContaining({ db, base_url: second.baseUrl, api_key: first.apiKey, pid: second.process.pid })]);
      expect((await runCrm(['keys', 'list'], env, { cwd })).code).toBe(0);
    } finally {
      await second.stop();
    }
  });

  it('elsewhere, the same commands fail with exit 2 and say how to log in', async () => {
    for (const args of [
      ['trigger', 'deal.won'],
      ['keys', 'list'],
      ['sync', 'export', 'leads'],
    ]) {
      const res = await runCrm(args, env, { cwd: elsewhere.path });
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toContain('crm login --base-url URL --api-key KEY');
    }
  });
});

describe('crm login / whoami / logout', () => {
  it('whoami names the sandbox file and shows only the key prefix', async () => {
    const res = await runCrm(['whoami', '--json'], env, { cwd: project.path });
    expect(res.code).toBe(0);
    const who = JSON.parse(res.stdout);
    expect(who).toEqual({ base_url: sandbox.baseUrl, key: 'crm_test_…', source: 'sandbox-file', from: join(project.path, '.crm', 'sandbox.json') });
    expect(res.stdout).not.toContain(sandbox.apiKey);
  });

  it('login saves a 0600 profile that works from any folder, and logout forgets it', async () => {
    const login = await runCrm(['login', '--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey], env, { cwd: elsewhere.path });
    expect(login.code).toBe(0);
    expect(login.stdout).not.toContain(sandbox.apiKey);
    const file = join(config.path, 'crm', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ base_url: sandbox.baseUrl, api_key: sandbox.apiKey });

    const keys = await runCrm(['keys', 'list', '--json'], env, { cwd: elsewhere.path });
    expect(keys.code).toBe(0);
    const who = JSON.parse((await runCrm(['whoami', '--json'], env, { cwd: elsewhere.path })).stdout);
    expect(who.source).toBe('default-profile');

    const logout = await runCrm(['logout'], env, { cwd: elsewhere.path });
    expect(logout.code).toBe(0);
    expect((await runCrm(['keys', 'list'], env, { cwd: elsewhere.path })).code).toBe(2);
    const again = await runCrm(['logout'], env, { cwd: elsewhere.path });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("No profile 'default'");
  });

  it('follows the precedence: flags, variables, --profile/CRM_PROFILE, sandbox file, default profile', async () => {
    await runCrm(['login', '--base-url', 'http://127.0.0.1:9', '--api-key', 'crm_test_defaultprofile'], env);
    await runCrm(['login', '--base-url', 'http://127.0.0.1:8', '--api-key', 'crm_test_namedprofile', '--profile', 'other'], env);
    const who = async (args: string[], extra: Record<string, string> = {}) =>
      JSON.parse((await runCrm(['whoami', '--json', ...args], { ...env, ...extra }, { cwd: project.path })).stdout);

    expect((await who([])).source).toBe('sandbox-file'); // sandbox file beats the default profile
    expect(await who(['--profile', 'other'])).toMatchObject({ source: 'profile', base_url: 'http://127.0.0.1:8' });
    expect(await who([], { CRM_PROFILE: 'other' })).toMatchObject({ source: 'profile', from: 'other' });
    expect(await who(['--profile', 'other'], { CRM_API_KEY: 'crm_test_fromenv' })).toMatchObject({ source: 'env' });
    expect(await who(['--api-key', 'crm_test_fromflag'], { CRM_API_KEY: 'crm_test_fromenv' })).toMatchObject({ source: 'flags' });
    const outside = JSON.parse((await runCrm(['whoami', '--json'], env, { cwd: elsewhere.path })).stdout);
    expect(outside).toMatchObject({ source: 'default-profile', base_url: 'http://127.0.0.1:9' });
    // A --base-url naming another server never gets a stored key for a different one.
    const other = await runCrm(['whoami', '--base-url', 'http://127.0.0.1:7'], env, { cwd: project.path });
    expect(other.code).toBe(2);
  });

  it('an unknown --profile is a usage error that lists the known ones', async () => {
    const res = await runCrm(['keys', 'list', '--profile', 'nope'], env, { cwd: elsewhere.path });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("No profile 'nope'");
    expect(res.stderr).toContain('other');
  });

  it('warns when the profile file can be read by others', async () => {
    const file = join(config.path, 'crm', 'config.json');
    chmodSync(file, 0o644);
    const res = await runCrm(['whoami'], env, { cwd: elsewhere.path });
    expect(res.stderr).toContain('can be read by other users');
    expect(res.stderr).toContain(`chmod 600 ${file}`);
    chmodSync(file, 0o600);
    expect((await runCrm(['whoami'], env, { cwd: elsewhere.path })).stderr).toBe('');
  });

  it('a profile file that is not JSON is a clear usage error', async () => {
    const dir = tempDir('crm-cred-bad-');
    mkdirSync(join(dir.path, 'crm'));
    writeFileSync(join(dir.path, 'crm', 'config.json'), '{ nope', { mode: 0o600 });
    const res = await runCrm(['keys', 'list'], { ...env, XDG_CONFIG_HOME: dir.path }, { cwd: elsewhere.path });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('is not valid JSON');
    expect(existsSync(join(dir.path, 'crm', 'config.json'))).toBe(true);
    dir.remove();
  });
});
