import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { runCrm } from '../helpers/cli-process.js';
import { startSandboxProcess, tempDir, type RunningSandbox } from '../helpers/sandbox.js';

/**
 * A finding (docs/security.md#the-folders-sandbox-file): a `.crm/sandbox.json` that any folder may carry (a cloned repository) sent
 * `crm sync import`'s rows, `crm sync copy`'s records and `crm mcp`'s calls to the server it named.
 * It is now believed only when this user's running `crm sandbox start` wrote it: owned by the user,
 * mode 0600, a loopback base_url, and the pid of a running crm sandbox (docs/security.md).
 *
 * Each planted file here points at a plain HTTP listener on this machine that records what reaches
 * it, and breaks exactly one of those conditions; the others hold (its pid is a real sandbox's).
 * The listener must receive nothing, and the command must say why on stderr.
 */
const config = tempDir('crm-planted-config-');
// No variable from the test runner's shell leaks in, and there is no default profile to fall back to.
const env = { CRM_API_KEY: '', CRM_BASE_URL: '', CRM_PROFILE: '', XDG_CONFIG_HOME: config.path };
const received: string[] = [];
let listener: Server;
let port: number;
let genuine: RunningSandbox;
const genuineHome = tempDir('crm-planted-genuine-');

beforeAll(async () => {
  listener = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    request.resume();
    response.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"title":"planted"}');
  });
  // Every interface: the non-loopback case names this machine's other address.
  await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
  port = (listener.address() as AddressInfo).port;
  genuine = await startSandboxProcess(['--no-seed'], { db: join(genuineHome.path, '.crm', 'sandbox.db'), cwd: genuineHome.path });
});
afterAll(async () => {
  await genuine?.stop();
  await new Promise((resolve) => listener?.close(resolve));
  config.remove();
  genuineHome.remove();
});

/** This machine's first address that is not loopback (the listener answers there too). */
const otherAddress = () =>
  Object.values(networkInterfaces())
    .flatMap((a) => a ?? [])
    .find((a) => a.family === 'IPv4' && !a.internal)?.address ?? '192.0.2.1';

/** A folder with a .crm/sandbox.json as `crm sandbox start` writes it, naming the listener; `change` breaks one condition. */
function plantedFolder(change: { entry?: Record<string, unknown>; mode?: number; owner?: number }): string {
  const folder = tempDir('crm-planted-').path;
  mkdirSync(join(folder, '.crm'));
  writeFileSync(join(folder, 'leads.csv'), 'first_name,email\nAda,ada@example.test\n');
  const entry = {
    db: join(folder, '.crm', 'sandbox.db'),
    base_url: `http://127.0.0.1:${port}`,
    api_key: 'crm_test_planted',
    pid: genuine.process.pid,
    started_at: new Date().toISOString(),
    ...change.entry,
  };
  const path = join(folder, '.crm', 'sandbox.json');
  writeFileSync(path, JSON.stringify({ version: 2, default_db: entry.db, sandboxes: [entry] }));
  chmodSync(path, change.mode ?? 0o600);
  if (change.owner !== undefined) chownSync(path, change.owner, change.owner);
  return folder;
}

/** Runs an import, a list and `crm mcp` in the folder: what the listener received, and each run. */
async function runAll(folder: string) {
  received.length = 0;
  const runs = [
    await runCrm(['sync', 'import', 'leads', 'leads.csv'], env, { cwd: folder }),
    await runCrm(['keys', 'list'], env, { cwd: folder }),
    await runCrm(['mcp'], env, { cwd: folder, input: '' }),
  ];
  return { received: [...received], runs };
}

describe('a planted .crm/sandbox.json', () => {
  it('control: the same file with every condition met is used (the listener is reached)', async () => {
    const { received: got, runs } = await runAll(plantedFolder({}));
    expect(got.length).toBeGreaterThan(0);
    expect(runs[1]!.stderr).not.toMatch(/Ignoring/);
  });

  const cases: [string, Parameters<typeof plantedFolder>[0], RegExp][] = [
    ['mode 0644 (as git checks a file out)', { mode: 0o644 }, /is mode 0644, not 0600/],
    ['mode 0640 (readable by its group)', { mode: 0o640 }, /is mode 0640, not 0600/],
    ['an entry without a pid (trusted outright before)', { entry: { pid: undefined } }, /records no pid of a running sandbox/],
    ['pid 1 (always alive)', { entry: { pid: 1 } }, /pid 1, which it names for .* is not a `crm sandbox start` of yours/],
    ['the pid of a process that is not a crm sandbox (this test runner)', { entry: { pid: process.pid } }, /is not a `crm sandbox start` of yours/],
    ['a base_url that is not loopback', { entry: { base_url: `http://${otherAddress()}:${port}` } }, /not this machine's loopback/],
  ];
  // Only root can give a file to another user; this suite runs as root in CI and here.
  if (process.getuid?.() === 0) cases.push(["another user's file (uid 4242)", { owner: 4242 }, /belongs to another user \(uid 4242\)/]);

  it.each(cases)('%s: nothing reaches its server, and each command says why', async (_name, change, why) => {
    const folder = plantedFolder(change);
    const { received: got, runs } = await runAll(folder);
    expect(got).toEqual([]);
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(why);
      expect(run.stderr).toContain(`Ignoring ${join(folder, '.crm', 'sandbox.json')}:`);
      expect(run.stderr).toContain('or pass --base-url and --api-key');
    }
  });

  it('falls through to the default profile, with the reason as a one-line warning', async () => {
    const home = tempDir('crm-planted-profile-');
    const login = await runCrm(['login', '--base-url', genuine.baseUrl, '--api-key', genuine.apiKey], { ...env, XDG_CONFIG_HOME: home.path });
    expect(login.code).toBe(0);
    received.length = 0;
    const keys = await runCrm(['keys', 'list', '--json'], { ...env, XDG_CONFIG_HOME: home.path }, { cwd: plantedFolder({ mode: 0o644 }) });
    expect(received).toEqual([]);
    expect(keys.code).toBe(0);
    expect(JSON.parse(keys.stdout).data.length).toBeGreaterThanOrEqual(1);
    const warnings = keys.stderr.trim().split('\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: Ignoring .*is mode 0644.*Using the default profile \(http:\/\/127\.0\.0\.1:\d+\) instead\.$/);
    home.remove();
  });

  it('crm sandbox start replaces a planted file instead of keeping its entries', async () => {
    const folder = plantedFolder({ mode: 0o644 });
    const started = await startSandboxProcess(['--no-seed'], { db: join(folder, '.crm', 'sandbox.db'), cwd: folder });
    try {
      const saved = JSON.parse(readFileSync(join(folder, '.crm', 'sandbox.json'), 'utf8'));
      expect(saved.sandboxes.map((e: { base_url: string }) => e.base_url)).toEqual([started.baseUrl]);
      expect(started.stderr()).toMatch(/is mode 0644, not 0600.*; crm wrote a new one in its place/);
      const keys = await runCrm(['keys', 'list', '--json'], env, { cwd: folder });
      expect(keys.code).toBe(0);
    } finally {
      await started.stop();
    }
  });
});

describe('crm sandbox start and git', () => {
  it('writes .crm/.gitignore, so that git ignores the key file and the database', () => {
    const ignore = join(genuineHome.path, '.crm', '.gitignore');
    expect(existsSync(ignore)).toBe(true);
    expect(readFileSync(ignore, 'utf8')).toMatch(/^\*$/m);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: genuineHome.path, encoding: 'utf8' });
    git('init', '-q');
    expect(git('check-ignore', '.crm/sandbox.json', '.crm/sandbox.db').trim().split('\n')).toEqual(['.crm/sandbox.json', '.crm/sandbox.db']);
    git('add', '.');
    expect(git('ls-files')).not.toContain('.crm/');
  });

  it('writes it also when the start made .crm/ only for sandbox.json (a database in memory)', async () => {
    const home = tempDir('crm-planted-memory-');
    const started = await startSandboxProcess(['--no-seed'], { db: ':memory:', cwd: home.path });
    try {
      expect(existsSync(join(home.path, '.crm', 'sandbox.json'))).toBe(true);
      expect(readFileSync(join(home.path, '.crm', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    } finally {
      await started.stop();
      home.remove();
    }
  });
});
