import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';
import { CRM_BIN, startSandboxProcess, tempDir, type RunningSandbox } from '../helpers/sandbox.js';
import { dbValue, readCsv, writeLeadsCsv } from '../helpers/sync.js';

/**
 * Crashes in the middle of an import: the client killed (SIGKILL) and rerun, with and without
 * --resume; the sandbox killed and restarted on the same database. Every time the server must
 * end up holding each row of the file exactly once. The file is created without external ids
 * and imported with --mode create, so only the batches' Idempotency-Keys stand between a rerun
 * and duplicates.
 */
const ROWS = 50_000;
const tmp = tempDir('crm-sync-crash-');
let file: string;

beforeAll(async () => {
  file = join(tmp.path, 'big.csv');
  await writeLeadsCsv(file, ROWS, { prefix: 'crash' });
});
afterAll(() => tmp.remove());

const sandboxes: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.stop('SIGKILL')));
});

async function sandboxOn(db: string | undefined, args: string[] = []) {
  const s = await startSandboxProcess(['--no-seed', '--rate-limit', '0', ...args], db ? { db } : {});
  sandboxes.push(s);
  return s;
}

const importArgs = (results: string, ...extra: string[]) => ['sync', 'import', 'leads', file, '--mode', 'create', '--results', results, '--json', ...extra];
const env = (baseUrl: string, apiKey: string) => ({ CRM_BASE_URL: baseUrl, CRM_API_KEY: apiKey });

/** Batches the journal lists as finished (its first line is the header). */
function journaled(results: string): number {
  const path = join(results, 'journal.jsonl');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length - 1 : 0;
}

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Starts an import and SIGKILLs it once `batches` batches are journaled. */
async function importKilledAfter(batches: number, baseUrl: string, apiKey: string, results: string): Promise<void> {
  const child = spawn(process.execPath, [CRM_BIN, ...importArgs(results)], { env: { ...process.env, ...env(baseUrl, apiKey) }, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await until(() => journaled(results) >= batches || child.exitCode !== null, `${batches} batches`);
  expect(child.exitCode, 'the import finished before it could be killed').toBeNull();
  child.kill('SIGKILL');
  await exited;
  expect(journaled(results)).toBeLessThan(ROWS / 500);
}

function expectEachRowOnce(db: string): void {
  expect(dbValue(db, "SELECT count(*) FROM leads WHERE email LIKE 'crash%'")).toBe(ROWS);
  expect(dbValue(db, "SELECT count(DISTINCT email) FROM leads WHERE email LIKE 'crash%'")).toBe(ROWS);
  expect(dbValue(db, "SELECT count(*) FROM events WHERE type = 'lead.created'")).toBe(ROWS);
}

function expectResultsCoverTheFile(results: string): void {
  const succeeded = readCsv(join(results, 'succeeded.csv'));
  expect(succeeded).toHaveLength(ROWS);
  expect(new Set(succeeded.map((r) => r.line)).size).toBe(ROWS); // no row reported twice
  expect(readCsv(join(results, 'failed.csv'))).toHaveLength(0);
}

describe('the client killed mid-import', () => {
  it('rerun with --resume: skips the journaled batches, replays the one in flight, each row once', async () => {
    const sandbox = await sandboxOn(undefined);
    const results = join(tmp.path, 'resume');
    await importKilledAfter(10, sandbox.baseUrl, sandbox.apiKey, results);
    const done = journaled(results);
    const rerun = await runCrm(importArgs(results, '--resume'), env(sandbox.baseUrl, sandbox.apiKey));
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout).summary).toEqual({ created: ROWS, updated: 0, unchanged: 0, failed: 0 });
    expect(journaled(results)).toBe(ROWS / 500);
    expect(done).toBeGreaterThanOrEqual(10);
    expectEachRowOnce(sandbox.db);
    expectResultsCoverTheFile(results);
  }, 180_000);

  it('rerun without --resume: every batch is sent again and replayed, each row once', async () => {
    const sandbox = await sandboxOn(undefined);
    const results = join(tmp.path, 'fresh');
    await importKilledAfter(10, sandbox.baseUrl, sandbox.apiKey, results);
    const rerun = await runCrm(importArgs(results), env(sandbox.baseUrl, sandbox.apiKey));
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout).summary.created).toBe(ROWS);
    expectEachRowOnce(sandbox.db);
    expectResultsCoverTheFile(results);
  }, 180_000);
});

describe('the sandbox killed mid-import', () => {
  const apiKey = `crm_test_${randomBytes(24).toString('hex').slice(0, 32)}`;

  async function restartable() {
    const first = await sandboxOn(undefined, ['--api-key', apiKey]);
    const port = new URL(first.baseUrl).port;
    return { first, restart: () => sandboxOn(first.db, ['--api-key', apiKey, '--port', port]) };
  }

  it('restarted within the retries: the import finishes by itself, each row once', async () => {
    const { first, restart } = await restartable();
    const results = join(tmp.path, 'server-restart');
    const run = runCrm(importArgs(results), env(first.baseUrl, apiKey));
    await until(() => journaled(results) >= 5, '5 batches');
    await first.stop('SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    const second = await restart();
    expect(second.baseUrl).toBe(first.baseUrl);
    const done = await run;
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout).summary.created).toBe(ROWS);
    expectEachRowOnce(second.db);
    expectResultsCoverTheFile(results);
  }, 180_000);

  it('down past the retries: stops with a clear message and unprocessed.csv; --resume then completes it', async () => {
    const { first, restart } = await restartable();
    const results = join(tmp.path, 'server-down');
    const run = runCrm(importArgs(results, '--retries', '1'), env(first.baseUrl, apiKey));
    await until(() => journaled(results) >= 5, '5 batches');
    await first.stop('SIGKILL');
    const stopped = await run;
    expect(stopped.code).toBe(1);
    const report = JSON.parse(stopped.stdout);
    expect(report.stopped).toMatch(/No answer from http:\/\/127\.0\.0\.1:\d+/);
    const unprocessed = readCsv(join(results, 'unprocessed.csv'));
    expect(unprocessed.length).toBe(report.unprocessed);
    const succeeded = readCsv(join(results, 'succeeded.csv'));
    expect(succeeded.length + unprocessed.length).toBe(ROWS); // every row either finished or left for later
    expect(unprocessed[0]).toMatchObject({ first_name: expect.stringMatching(/^First\d+$/), line: expect.stringMatching(/^\d+$/) });

    const second = await restart();
    const resumed = await runCrm(importArgs(results, '--resume'), env(second.baseUrl, apiKey));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout).summary.created).toBe(ROWS);
    expect(existsSync(join(results, 'unprocessed.csv'))).toBe(false);
    expectEachRowOnce(second.db);
    expectResultsCoverTheFile(results);
  }, 180_000);
});
