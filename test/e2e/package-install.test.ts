import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmPack, PATH_WITH_NODE, ROOT, run, type PackResult } from '../helpers/packages.js';
import { startSandboxProcess, tempDir, type RunningSandbox } from '../helpers/sandbox.js';

/**
 * The CLI as a stranger gets it (docs/versioning.md#the-packages): `npm pack` makes the tarball that `npm publish` would
 * upload, `npm install -g` puts it under a temporary prefix (dependencies from the npm cache that
 * `npm ci` filled, the registry only for what is not there), and the installed `crm` runs from a
 * folder outside the checkout: the sandbox with its dashboard, /docs and seed data, a sync import,
 * and `crm mcp` for an MCP client configured with that `crm`'s path.
 */
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> };
const temp = tempDir('crm-package-');
const work = join(temp.path, 'my-project'); // a user's own folder: no package.json, no node_modules
let pack: PackResult & { tarball: string };
let crm: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  mkdirSync(work);
  pack = await npmPack(ROOT, temp.path, ['--ignore-scripts']);
  const prefix = join(temp.path, 'prefix');
  await run('npm', ['install', '--global', pack.tarball, '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: work });
  crm = join(prefix, 'bin', Object.keys(PACKAGE.bin)[0]!);
  sandbox = await startSandboxProcess([], { command: crm, cwd: work, db: join(work, 'crm.db'), env: { PATH: PATH_WITH_NODE } });
}, 180_000);

afterAll(async () => {
  await sandbox?.stop();
  temp.remove();
}, 60_000);

describe('the CLI package', () => {
  it('ships bin/, the built code and its assets, and nothing of the build or the tests', () => {
    const paths = pack.files.map((f) => f.path);
    // The worker threads' scripts too: without them the sandbox checkpoints and the export renders on
    // the main thread, slower and silently (src/store/checkpoint-thread.ts, src/sync/export/render-thread.ts).
    const workers = ['dist/store/checkpoint-worker.js', 'dist/sync/export/render-worker.js'];
    for (const needed of [
      'bin/crm.js',
      'bin/package.json',
      'dist/cli/main.js',
      'dist/index.d.ts',
      'dist/web/app.js',
      'dist/web/docs/swagger-ui-bundle.js',
      ...workers,
      'package.json',
      'README.md',
      'CHANGELOG.md',
      'LICENSE',
    ]) {
      expect(paths, needed).toContain(needed);
    }
    expect(paths.some((p) => p.startsWith('dist/store/migrations/') && p.endsWith('.sql'))).toBe(true);
    expect(paths.some((p) => p.startsWith('dist/sandbox/seed'))).toBe(true);
    const leftovers = paths.filter((p) => /\.tsbuildinfo$|\.map$|(^|\/)(test|src|web\/src|scripts|sdks|bench|\.ci)\//.test(p));
    expect(leftovers).toEqual([]);
    expect(pack.filename).toBe(`${PACKAGE.name.replace('@', '').replace('/', '-')}-0.1.0.tgz`);
  });

  it('installs a `crm` that starts a sandbox outside the checkout: dashboard, /docs and seed data served', async () => {
    expect(realpathSync(crm)).not.toContain(realpathSync(ROOT));
    const page = await fetch(`${sandbox.baseUrl}/dashboard/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/dashboard/assets/app.js');
    const app = await fetch(`${sandbox.baseUrl}/dashboard/assets/app.js`);
    expect(app.status).toBe(200);
    expect((await app.text()).length).toBeGreaterThan(10_000);
    const docs = await fetch(`${sandbox.baseUrl}/docs`);
    expect(await docs.text()).toContain('/docs/assets/swagger-ui-bundle.js');
    // Every body read to its end: an unread one keeps its request open, and the sandbox's stop waits for it.
    const swagger = await fetch(`${sandbox.baseUrl}/docs/assets/swagger-ui-bundle.js`);
    expect(swagger.status).toBe(200);
    expect((await swagger.text()).length).toBeGreaterThan(100_000);
    const clients = (await (await fetch(`${sandbox.baseUrl}/v1/clients?limit=5`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } })).json()) as {
      data: unknown[];
    };
    expect(clients.data.length).toBe(5); // the seed image was found and loaded
  });

  it("imports a CSV with `crm sync import` from the user's folder", async () => {
    writeFileSync(
      join(work, 'leads.csv'),
      'External ID,First Name,Email,Status\npkg-1,Ada,ada.pkg@example.com,new\npkg-2,Grace,grace.pkg@example.com,contacted\n',
    );
    const env = { CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey };
    const imported = await run(crm, ['sync', 'import', 'leads', 'leads.csv', '--json'], { cwd: work, env });
    expect(JSON.parse(imported.stdout)).toMatchObject({ rows: 2, summary: { created: 2, failed: 0 } });
    const found = (await (
      await fetch(`${sandbox.baseUrl}/v1/leads?email=grace.pkg%40example.com`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } })
    ).json()) as { data: { status: string }[] };
    expect(found.data.map((l) => l.status)).toEqual(['contacted']);
  });

  it("generates an SDK's files with `crm sdk generate` (the generator and the OpenAPI document ship too)", async () => {
    const generated = await run(crm, ['sdk', 'generate', '--lang', 'python', '--out', 'my-sdk', '--json'], { cwd: work });
    expect(JSON.parse(generated.stdout).written).toEqual(expect.arrayContaining(['crm/_models.py', 'crm/_resources.py']));
    expect(readFileSync(join(work, 'my-sdk', 'crm', '_resources.py'), 'utf8')).toContain('class LeadsResource');
  });

  it('serves MCP over stdio to a client configured with the installed `crm` path', async () => {
    const transport = new StdioClientTransport({
      command: crm,
      args: ['mcp'],
      cwd: work,
      env: { PATH: PATH_WITH_NODE, CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey, NO_COLOR: '1' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('create_lead');
      const made = (await client.callTool({ name: 'create_lead', arguments: { first_name: 'Mcp', email: 'mcp.pkg@example.com' } })) as {
        isError?: boolean;
        structuredContent?: { id?: string };
      };
      expect(made.isError ?? false).toBe(false);
      expect(made.structuredContent?.id).toMatch(/^lead_/);
    } finally {
      await client.close();
    }
  });
});
