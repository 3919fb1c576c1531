import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrm, spawnCrm } from '../helpers/cli-process.js';
import { apiClient, startSandboxProcess, tempDir, type ApiClient, type RunningSandbox } from '../helpers/sandbox.js';

/**
 * Ctrl+C (docs/sandbox.md): `crm sync import|export` and `crm mcp` stop cleanly on SIGINT — the work in
 * flight finishes, what is left is written down for --resume, and the exit code is the documented
 * one, never death by a signal. To interrupt at a known moment, the sandbox fails the first request
 * with a 503 (Retry-After: 1): the command says it will retry, and SIGINT arrives during that wait.
 */
const ROWS = 3000;
const dir = tempDir();
let sandbox: RunningSandbox;
let api: ApiClient;
let auth: string[];

beforeAll(async () => {
  sandbox = await startSandboxProcess(['--no-seed']);
  api = apiClient(sandbox);
  auth = ['--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey];
  const lines = ['first_name,last_name,email'];
  for (let i = 0; i < ROWS; i++) lines.push(`Ada${i},Lovelace,ada${i}@interrupt.example`);
  writeFileSync(join(dir.path, 'leads.csv'), `${lines.join('\n')}\n`);
});

afterAll(async () => {
  await sandbox?.stop();
  dir.remove();
});

const armFault = (method: string, pathPrefix: string) => api.post('/_sandbox/faults', { method, path_prefix: pathPrefix, status: 503, count: 1 });

async function interruptDuringRetry(args: string[]) {
  const crm = spawnCrm(args, { NO_COLOR: '1' });
  const deadline = Date.now() + 20_000;
  while (!/waiting: .*retrying/.test(crm.stderr())) {
    if (crm.child.exitCode !== null || Date.now() > deadline) throw new Error(`no retry note from crm ${args.join(' ')}:\n${crm.stderr()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  crm.child.kill('SIGINT');
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => crm.child.once('exit', (_code, s) => resolve(s)));
  return { code: crm.child.exitCode, signal, stdout: crm.lines.join('\n'), stderr: crm.stderr() };
}

describe('Ctrl+C', () => {
  it('sync import: the batch in flight finishes, the rest is unprocessed, exit 1; --resume sends each row once', async () => {
    const results = join(dir.path, 'import-results');
    const args = ['sync', 'import', 'leads', join(dir.path, 'leads.csv'), '--batch-size', '100', '--concurrency', '1', '--results', results, ...auth];
    expect((await armFault('POST', '/v1/leads/bulk')).status).toBe(201);
    const stopped = await interruptDuringRetry(args);
    expect({ code: stopped.code, signal: stopped.signal }).toEqual({ code: 1, signal: null });
    expect(stopped.stdout).toMatch(/Stopped early.*interrupted/);
    expect(stopped.stdout).toMatch(/--resume/);
    const unprocessed = readFileSync(join(results, 'unprocessed.csv'), 'utf8').trim().split('\n').length - 1;
    expect(unprocessed).toBeGreaterThan(0);
    expect(unprocessed).toBeLessThan(ROWS);

    const resumed = await runCrm([...args, '--resume', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout).summary).toEqual({ created: ROWS, updated: 0, unchanged: 0, failed: 0 });
    const all = await runCrm(['sync', 'export', 'leads', '--out', join(dir.path, 'check.csv'), '--json', ...auth]);
    expect(JSON.parse(all.stdout).rows).toBe(ROWS); // each row once: no duplicates from the interrupted batch
  });

  it('sync export: stops after the page in hand with its state saved, exit 1; --resume completes the file', async () => {
    const out = join(dir.path, 'export.csv');
    const args = ['sync', 'export', 'leads', '--out', out, ...auth];
    expect((await armFault('GET', '/v1/leads')).status).toBe(201);
    const stopped = await interruptDuringRetry(args);
    expect({ code: stopped.code, signal: stopped.signal }).toEqual({ code: 1, signal: null });
    expect(stopped.stdout).toMatch(/Stopped early: interrupted\. Rerun the same command with --resume/);
    expect(existsSync(`${out}.state.json`)).toBe(true);
    const partial = readFileSync(out, 'utf8').trim().split('\n').length - 1;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(ROWS);

    const resumed = await runCrm([...args, '--resume', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const emails = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',').find((cell) => cell.includes('@')));
    expect(new Set(emails).size).toBe(ROWS);
    expect(emails).toHaveLength(ROWS);
  });

  it('mcp: SIGINT ends the stdio server with exit 0', async () => {
    // stdin stays open (a pipe, as an MCP client holds it): with stdin at end of file the server
    // ends by itself, and a SIGINT racing that exit could land after Node let go of its handler.
    const mcp = spawnCrm(['mcp', ...auth], {}, process.execPath, undefined, 'pipe');
    const deadline = Date.now() + 20_000;
    while (!/MCP server on stdio/.test(mcp.stderr())) {
      if (mcp.child.exitCode !== null || Date.now() > deadline) throw new Error(`crm mcp did not start:\n${mcp.stderr()}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    mcp.child.kill('SIGINT');
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => mcp.child.once('exit', (_code, s) => resolve(s)));
    expect({ code: mcp.child.exitCode, signal }).toEqual({ code: 0, signal: null });
  });
});
