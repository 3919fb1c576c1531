// The single-file executable (scripts/build-binary.mjs): built from the current dist/, copied
// into a fresh temporary folder outside the repository and run from there, with no node on the
// PATH, no NODE_PATH and no node_modules anywhere above it, as on a machine that only has the file.
// The tests share one sandbox started by the binary, so they run in order.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parse } from 'csv-parse/sync';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox.js';
import { writeLeadsCsv } from '../helpers/sync.js';

const ROOT = join(import.meta.dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
// Building injects ~100 MB with postject: seconds on an idle machine, far more on a busy one.
const BUILD_TIMEOUT_MS = 300_000;

const dir = tempDir('crm-binary-');
const binary = join(dir.path, 'crm');
/** The only environment the binary gets: its own TMPDIR (where it unpacks the SQLite addon). */
const env: Record<string, string> = { PATH: dir.path, HOME: dir.path, TMPDIR: join(dir.path, 'tmp'), NO_COLOR: '1' };
/** Where the binary keeps V8's code caches of its bundle (bin/code-cache.cjs), and one of bin/crm.js's beside it. */
const codeCaches = join(dir.path, '.cache', 'crm', 'binary');
const npmCliCache = join(dir.path, '.cache', 'crm', '0123456789abcdef0123cafe0000-sandbox-start.v8');

function run(args: string[], extraEnv: Record<string, string> = {}) {
  const result = spawnSync(binary, args, { cwd: dir.path, env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

let sandbox: { baseUrl: string; apiKey: string; stop(): Promise<void>; stderr(): string };

beforeAll(async () => {
  const started = Date.now();
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build-binary.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS });
  if (build.status !== 0) throw new Error(`build-binary failed (exit ${build.status}):\n${build.stderr}`);
  process.stderr.write(`binary.test: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  copyFileSync(join(ROOT, 'build', 'crm'), binary);
  mkdirSync(env.TMPDIR!);
  // A code cache of bin/crm.js's bundle, as an npm install of crm leaves it beside the binary's folder.
  mkdirSync(join(codeCaches, '..'), { recursive: true, mode: 0o700 });
  writeFileSync(npmCliCache, 'not a real cache', { mode: 0o600 });
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await sandbox?.stop();
  dir.remove();
});

describe('the single binary, run from a folder outside the repository', () => {
  it('knows its version', () => {
    const { code, stdout, stderr } = run(['--version']);
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe(VERSION);
  });

  it('runs on the Node 24 it embeds, whatever node built it', () => {
    const { code, stdout, stderr } = run(['version', '--json']);
    expect(code, stderr).toBe(0);
    const about = JSON.parse(stdout) as { version: string; node: string };
    expect(about.version).toBe(VERSION);
    expect(about.node).toMatch(/^v24\./);
  });

  it('starts the sandbox: migrations and the SQLite addon come from inside the binary', async () => {
    const child = spawn(binary, ['sandbox', 'start', '--port', '0', '--json', '--db', './sandbox.db'], {
      cwd: dir.path,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      exited.then(() => reject(new Error(`sandbox exited before it was ready:\n${stderr}`)));
    });
    const ready = JSON.parse(line) as { base_url: string; api_key: string; db: string };
    sandbox = {
      baseUrl: ready.base_url,
      apiKey: ready.api_key,
      stderr: () => stderr,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };

    const health = await fetch(`${sandbox.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    const deals = await fetch(`${sandbox.baseUrl}/v1/deals?limit=5`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
    expect(deals.status, stderr).toBe(200);
    expect(((await deals.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0); // seeded
    // The dashboard's built files are SEA assets too (the binary has no dist/ beside it).
    for (const [file, type] of [
      ['app.js', 'text/javascript'],
      ['app.css', 'text/css'],
    ]) {
      const asset = await fetch(`${sandbox.baseUrl}/dashboard/assets/${file}`);
      expect(asset.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
      expect(await asset.text()).not.toContain('not built');
    }
    // And the API reference's (/docs): Swagger UI itself, byte for byte the built copy.
    const bundle = await fetch(`${sandbox.baseUrl}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(await bundle.text()).toBe(readFileSync(join(ROOT, 'dist/web/docs/swagger-ui-bundle.js'), 'utf8'));

    expect(existsSync(join(dir.path, 'sandbox.db'))).toBe(true);
    // The embedded addon was written to a cache folder under TMPDIR, and loaded from there.
    const cache = readdirSync(env.TMPDIR!).filter((f) => f.startsWith(`crm-${VERSION}-`));
    expect(cache).toHaveLength(1);
    expect(readdirSync(join(env.TMPDIR!, cache[0]!))).toEqual(['better_sqlite3.node']);
  });

  it('starts from the code cache its build made, and keeps its own when V8 refuses that one', () => {
    // The sandbox above started and answered /v1/deals, and `version` ran: had V8 refused the
    // embedded cache, each would have written one of its own here (at its first API answer, at exit).
    expect(run(['version', '--json']).code).toBe(0);
    expect(readdirSync(codeCaches)).toEqual([]);
    // Under other V8 flags it is refused: the command writes its own cache, and a second run with
    // the same flags starts from it, leaving it in place (same inode: a write replaces the file).
    const otherFlags = { NODE_OPTIONS: '--jitless' };
    expect(run(['version', '--json'], otherFlags).code).toBe(0);
    const own = readdirSync(codeCaches);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatch(/^[0-9a-f]{28}-version\.v8$/);
    const cache = join(codeCaches, own[0]!);
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    const before = statSync(cache);
    expect(run(['version', '--json'], otherFlags).code).toBe(0);
    expect(statSync(cache).ino).toBe(before.ino);
    // Each write sweeps away caches of other bundles in its folder: never bin/crm.js's, one level up.
    expect(readFileSync(npmCliCache, 'utf8')).toBe('not a real cache');
  });

  it('serves MCP over stdio against that sandbox', async () => {
    const transport = new StdioClientTransport({
      command: binary,
      args: ['mcp'],
      cwd: dir.path,
      env: { ...env, CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'crm-binary-test', version: '1.0.0' });
    await client.connect(transport); // initialize + initialized
    try {
      expect(client.getServerVersion()?.version).toBe(VERSION);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_deals', 'create_lead', 'list_events']));
      // One call through the CLI's HTTP client to the sandbox, inside the same binary.
      const result = (await client.callTool({ name: 'list_deals', arguments: {} })) as { isError?: boolean; structuredContent?: { data: unknown[] } };
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent!.data.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('imports a CSV fixture into that sandbox with sync import', async () => {
    copyFileSync(join(ROOT, 'fixtures/sync/leads-good.csv'), join(dir.path, 'leads.csv'));
    const rows = parse(readFileSync(join(dir.path, 'leads.csv')), { columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThan(0);

    // Its custom.* columns fill no field the sandbox defines: --create-fields defines them, as the stop message offers.
    const { code, stdout, stderr } = run(['sync', 'import', 'leads', './leads.csv', '--create-fields'], {
      CRM_BASE_URL: sandbox.baseUrl,
      CRM_API_KEY: sandbox.apiKey,
    });
    expect(code, `${stdout}\n${stderr}`).toBe(0);

    for (const row of rows) {
      const found = await fetch(`${sandbox.baseUrl}/v1/leads?external_id=${encodeURIComponent(row['External ID']!)}`, {
        headers: { authorization: `Bearer ${sandbox.apiKey}` },
      });
      const { data } = (await found.json()) as { data: { first_name: string | null; company: string | null }[] };
      expect(data, row['External ID']).toHaveLength(1);
      // An empty cell is no value (null) in the API.
      expect(data[0]).toMatchObject({ first_name: row['First Name'] || null, company: row.Company || null });
    }
  });

  it('exports over several pages with sync export (rendered on its main thread: the binary has no render-worker file beside it)', async () => {
    await writeLeadsCsv(join(dir.path, 'many.csv'), 1500, { externalIds: true, prefix: 'bin' });
    const auth = { CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey };
    expect(run(['sync', 'import', 'leads', './many.csv'], auth).code).toBe(0);
    const { code, stdout, stderr } = run(['sync', 'export', 'leads', '--out', './export.csv', '--json'], auth);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    const rows = parse(readFileSync(join(dir.path, 'export.csv')), { columns: true }) as Record<string, string>[];
    expect(JSON.parse(stdout)).toMatchObject({ rows: rows.length });
    expect(rows.filter((r) => r.external_id!.startsWith('bin-'))).toHaveLength(1500);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  });
});
