// dist/cli.bundle.cjs (scripts/build-cli-bundle.mjs): bin/crm.js runs the CLI from that one file
// in an installed package, and in a checkout when it was built after tsc's last emit. These tests
// run it where nothing else of the compiled tree exists — a copy of the package holding bin/, package.json, the bundle and the
// files it reads (migrations, seed image, dashboard and API reference assets) — so every path the
// bundle resolves at run time is proven to point into the installed package, not into this checkout.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';

const ROOT = join(import.meta.dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
let pkg: string;

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [join(pkg, 'bin', 'crm.js'), ...args], {
    cwd: pkg,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return { child, out: () => stdout, err: () => stderr, done: new Promise<number | null>((resolve) => child.once('close', resolve)) };
}

beforeAll(() => {
  pkg = mkdtempSync(join(tmpdir(), 'crm-bundle-'));
  cpSync(join(ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  for (const path of ['cli.bundle.cjs', 'cli/main.js', 'store/migrations', 'sandbox/seed-1.sqlite', 'web']) {
    cpSync(join(ROOT, 'dist', path), join(pkg, 'dist', path), { recursive: true });
  }
  // As npm unpacks a package: file times in no particular order (here main.js after the bundle).
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(pkg, 'dist', 'cli', 'main.js'), later, later);
});

afterAll(() => rmSync(pkg, { recursive: true, force: true }));

describe('the bundled CLI', () => {
  it('prints the package version and the same help as the unbundled CLI', async () => {
    const version = run(['--version']);
    expect(await version.done).toBe(0);
    expect(version.out().trim()).toBe(VERSION);

    const bundled = run(['sandbox', 'start', '--help']);
    expect(await bundled.done).toBe(0);
    const unbundled = await runCrm(['sandbox', 'start', '--help'], { CRM_NO_BUNDLE: '1' });
    expect(unbundled.code).toBe(0);
    expect(bundled.out()).toContain('--db <path>');
    expect(bundled.out()).toBe(unbundled.stdout);
  });

  it('answers --help without loading what only commands use: node:crypto, node:http, the SQLite addon', async () => {
    // What the process loaded, written as it exits by a script Node runs first (--require).
    const out = join(pkg, 'loaded.json');
    const preload = join(pkg, 'record-loaded.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require('node:module')._cache) })));`,
    );
    const help = run(['--help'], { NODE_OPTIONS: `--require "${preload}"` });
    expect(await help.done).toBe(0);
    expect(help.out()).toContain('sandbox');
    const loaded = JSON.parse(readFileSync(out, 'utf8')) as { builtins: string[]; files: string[] };
    expect(loaded.builtins).toContain('NativeModule vm'); // the list is the real one: bin/crm.js runs the bundle through vm
    for (const heavy of ['NativeModule crypto', 'NativeModule http', 'NativeModule internal/crypto/hash']) expect(loaded.builtins).not.toContain(heavy);
    expect(loaded.files.filter((file) => file.endsWith('.node'))).toEqual([]);
  });

  it('starts a seeded sandbox that serves the API, the dashboard and the API reference from the installed files', async () => {
    mkdirSync(join(pkg, 'data'), { recursive: true });
    const sandbox = run(['sandbox', 'start', '--port', '0', '--json', '--db', join(pkg, 'data', 'crm.db')]);
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: sandbox.child.stdout }).once('line', resolve);
        sandbox.child.once('exit', (code) => reject(new Error(`exited ${code}: ${sandbox.err()}`)));
      });
      const { base_url: base, api_key: key } = JSON.parse(line) as { base_url: string; api_key: string };
      const deals = await fetch(`${base}/v1/deals?limit=5`, { headers: { authorization: `Bearer ${key}` } });
      expect(deals.status).toBe(200);
      // The seed image's deals (dist/sandbox/seed-1.sqlite), with a signed cursor to more.
      const page = (await deals.json()) as { data: { id: string }[]; next_cursor: string | null };
      expect(page.data).toHaveLength(5);
      expect(page.next_cursor).toEqual(expect.any(String));
      const app = await fetch(`${base}/dashboard/assets/app.js`);
      expect(app.status).toBe(200);
      expect(await app.text()).toBe(readFileSync(join(ROOT, 'dist', 'web', 'app.js'), 'utf8'));
      const docs = await fetch(`${base}/docs/assets/init.js`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toBe(readFileSync(join(ROOT, 'dist', 'web', 'docs', 'init.js'), 'utf8'));
    } finally {
      sandbox.child.kill('SIGTERM');
      expect(await sandbox.done).toBe(0);
    }
  });

  it("keeps V8's code cache per command in a private folder, and runs the same with a corrupt or foreign cache", async () => {
    const caches = join(pkg, 'code-cache');
    const env = { CRM_CODE_CACHE_DIR: caches };
    const help = run(['sandbox', 'start', '--help'], env);
    expect(await help.done).toBe(0);
    const [file, ...others] = readdirSync(caches);
    expect(others).toEqual([]);
    expect(file).toMatch(/^[0-9a-f]{28}-help\.v8$/);
    expect(statSync(join(caches, file!)).mode & 0o777).toBe(0o600);
    expect(statSync(caches).mode & 0o777).toBe(0o700);

    // Garbage where the cache was: V8 refuses it, the command runs as before and the cache is made again.
    const garbage = Buffer.alloc(4096, 7);
    writeFileSync(join(caches, file!), garbage);
    const again = run(['sandbox', 'start', '--help'], env);
    expect(await again.done).toBe(0);
    expect(again.out()).toBe(help.out());
    expect(readFileSync(join(caches, file!)).equals(garbage)).toBe(false);

    // A cache of another bundle (an earlier version) is swept when a new cache is written.
    const stale = join(caches, `${'0'.repeat(28)}-help.v8`);
    writeFileSync(stale, garbage, { mode: 0o600 });
    const version = run(['--version'], env);
    expect(await version.done).toBe(0);
    expect(readdirSync(caches).sort()).toEqual([file!, file!.replace('-help.v8', '-other.v8')].sort());

    // A folder others may write to could hand us code: it is not used at all.
    const shared = join(pkg, 'shared-cache');
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    const inShared = run(['--version'], { CRM_CODE_CACHE_DIR: shared });
    expect(await inShared.done).toBe(0);
    expect(inShared.out().trim()).toBe(VERSION);
    expect(readdirSync(shared)).toEqual([]);
  });

  it("makes a sandbox's code cache when its first API answer has gone, and does not grow it over a long run", async () => {
    const caches = join(pkg, 'sandbox-code-cache');
    const sandbox = run(['sandbox', 'start', '--port', '0', '--json', '--db', join(pkg, 'cache-data', 'crm.db')], { CRM_CODE_CACHE_DIR: caches });
    const cacheFiles = () => readdirSync(caches).filter((name) => name.endsWith('-sandbox-start.v8'));
    let made = Buffer.alloc(0);
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: sandbox.child.stdout }).once('line', resolve);
        sandbox.child.once('exit', (code) => reject(new Error(`exited ${code}: ${sandbox.err()}`)));
      });
      const { base_url: base, api_key: key } = JSON.parse(line) as { base_url: string; api_key: string };
      expect(cacheFiles()).toEqual([]); // ready, but no request served yet
      const headers = { authorization: `Bearer ${key}` };
      expect((await fetch(`${base}/v1/deals?limit=5`, { headers })).status).toBe(200);
      // Written while the sandbox runs (before, only at its exit), right after that response.
      await expect.poll(cacheFiles, { timeout: 5000 }).toHaveLength(1);
      made = readFileSync(join(caches, cacheFiles()[0]!));
      // Routes the start never ran, then a run longer than the 2 s after which other commands' caches grow.
      for (const path of ['/v1/leads', '/v1/clients', '/v1/invoices', '/v1/events', '/v1/openapi.json']) {
        expect((await fetch(`${base}${path}`, { headers })).status).toBe(200);
      }
      await new Promise((resolve) => setTimeout(resolve, 2200));
    } finally {
      sandbox.child.kill('SIGTERM');
      expect(await sandbox.done).toBe(0);
    }
    expect(cacheFiles()).toHaveLength(1);
    const kept = readFileSync(join(caches, cacheFiles()[0]!));
    expect(kept.length).toBeGreaterThan(100_000);
    expect(kept.equals(made)).toBe(true); // not made again at exit with all the run compiled
    const again = run(['sandbox', 'start', '--port', '0', '--json', '--db', join(pkg, 'cache-data', 'crm.db')], { CRM_CODE_CACHE_DIR: caches });
    again.child.stdout.once('data', () => again.child.kill('SIGTERM'));
    expect(await again.done).toBe(0); // started from that cache
    expect(readFileSync(join(caches, cacheFiles()[0]!)).equals(kept)).toBe(true);
  });

  it("keeps a start's cache provisional until a start answers an API request, /healthz and a 404 not counted", async () => {
    const caches = join(pkg, 'provisional-code-cache');
    const db = join(pkg, 'provisional-data', 'crm.db');
    const names = () =>
      readdirSync(caches)
        .filter((name) => name.includes('-sandbox-start.'))
        .sort();
    let firstKey = ''; // the admin key, printed by the start that makes the database
    const start = async (path: string | null) => {
      const sandbox = run(['sandbox', 'start', '--port', '0', '--json', '--db', db], { CRM_CODE_CACHE_DIR: caches });
      try {
        const line = await new Promise<string>((resolve, reject) => {
          createInterface({ input: sandbox.child.stdout }).once('line', resolve);
          sandbox.child.once('exit', (code) => reject(new Error(`exited ${code}: ${sandbox.err()}`)));
        });
        const { base_url: base, api_key: key } = JSON.parse(line) as { base_url: string; api_key: string | null };
        if (key) firstKey = key;
        if (path)
          expect((await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${firstKey}` } })).status).toBe(path.includes('no-such') ? 404 : 200);
      } finally {
        sandbox.child.kill('SIGTERM');
        expect(await sandbox.done).toBe(0);
      }
    };

    // Stopped before any request, then after a /healthz only: what they compiled is kept, as provisional.
    await start(null);
    expect(names()).toEqual([expect.stringMatching(/-sandbox-start\.provisional\.v8$/)]);
    await start('/healthz');
    await start('/v1/no-such-thing'); // an API request, but not answered: a 404 does not count
    expect(names()).toHaveLength(1);
    expect(names()[0]).toMatch(/-sandbox-start\.provisional\.v8$/);

    // The first API answer makes the cache for good, and the provisional one goes.
    await start('/v1/deals?limit=5');
    expect(names()).toEqual([expect.stringMatching(/-sandbox-start\.v8$/)]);
    expect(names()[0]).not.toContain('provisional');
    const kept = readFileSync(join(caches, names()[0]!));
    expect(kept.length).toBeGreaterThan(100_000);

    // Later starts, with or without requests, read it and leave it as it is.
    await start(null);
    await start('/v1/leads?limit=5');
    expect(names()).toHaveLength(1);
    expect(readFileSync(join(caches, names()[0]!)).equals(kept)).toBe(true);
  });

  it('in a checkout, is not used when tsc has emitted since it was built (a tsc alone never runs stale code)', async () => {
    // A checkout has src/ and tsc's dist/.tsbuildinfo; the bundle counts only if built after it.
    mkdirSync(join(pkg, 'src'));
    const bundleTime = new Date(Date.now() - 60_000);
    utimesSync(join(pkg, 'dist', 'cli.bundle.cjs'), bundleTime, bundleTime);
    writeFileSync(join(pkg, 'dist', '.tsbuildinfo'), '{}');
    utimesSync(join(pkg, 'dist', '.tsbuildinfo'), new Date(bundleTime.getTime() - 1000), new Date(bundleTime.getTime() - 1000));
    const fresh = run(['--version']);
    expect(await fresh.done).toBe(0);
    expect(fresh.out().trim()).toBe(VERSION);

    utimesSync(join(pkg, 'dist', '.tsbuildinfo'), new Date(), new Date());
    // Here the compiled tree is only main.js, so falling back to it fails in the way that says so.
    const stale = run(['--version']);
    expect(await stale.done).toBe(1);
    expect(stale.err()).toContain('crm is not built yet');
  });
});
