import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markStopped, pickSandbox, updateEntry, type SandboxFile } from '../../src/cli/sandbox-file.js';
import { isSandboxStart, isServingSandbox } from '../../src/cli/sandbox-trust.js';

/** The rules of .crm/sandbox.json (docs/sandbox.md): one entry per database, the default moves only off a dead sandbox. */
const dir = mkdtempSync(join(tmpdir(), 'crm-sbfile-'));
const a = join(dir, 'a.db');
const b = join(dir, 'b.db');
writeFileSync(a, '');
writeFileSync(b, '');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has exited: certainly not alive. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

const me = process.pid;
/** The rules of the file, with this test process and its parent standing in for two running sandboxes. */
const serving = (pid: number | null | undefined) => pid === me || pid === process.ppid;
const at = (n: number) => `2026-11-25T08:0${n}:00.000Z`;

describe('.crm/sandbox.json', () => {
  it('a pid counts only as a running crm sandbox start of this user', async () => {
    expect(isServingSandbox(me)).toBe(false); // alive, but vitest, not a sandbox
    expect(isServingSandbox(1)).toBe(false);
    expect(isServingSandbox(await deadPid())).toBe(false);
    expect(isServingSandbox(null)).toBe(false);
    expect(isSandboxStart(['/usr/bin/node', '/app/bin/crm.js', 'sandbox', 'start', '--port', '0'])).toBe(true);
    expect(isSandboxStart(['node', '/app/node_modules/.bin/crm', '--json', 'sandbox', 'start'])).toBe(true);
    expect(isSandboxStart(['./build/crm', 'sandbox', 'start'])).toBe(true);
    expect(isSandboxStart(['node', '/app/bin/crm.js', 'sandbox', 'reset'])).toBe(false);
    expect(isSandboxStart(['vim', 'sandbox', 'start'])).toBe(false);
    expect(isSandboxStart(['sleep', 'sandbox', 'start', 'crm'])).toBe(false);
  });

  it('a second live sandbox is added beside the first, which stays the default', () => {
    const first = updateEntry(undefined, dir, { baseUrl: 'http://127.0.0.1:4010', apiKey: 'crm_test_a', db: 'a.db', pid: me, now: at(1) }, serving)!;
    expect(first.file.default_db).toBe(a);
    expect(first.otherDefault).toBeUndefined();
    // Another live process (this test's parent stands in for it) starts on b.db.
    const second = updateEntry(
      first.file,
      dir,
      { baseUrl: 'http://127.0.0.1:5000', apiKey: 'crm_test_b', db: 'b.db', pid: process.ppid, now: at(2) },
      serving,
    )!;
    expect(second.file.default_db).toBe(a);
    expect(second.otherDefault?.db).toBe(a);
    expect(second.file.sandboxes.map((e) => e.db)).toEqual([a, b]);
    expect(pickSandbox(second.file, serving).entry?.base_url).toBe('http://127.0.0.1:4010');
  });

  it('commands use another live sandbox when the default is dead, and none when all are', async () => {
    const dead = await deadPid();
    const file: SandboxFile = {
      version: 2,
      default_db: a,
      sandboxes: [
        { db: a, base_url: 'http://127.0.0.1:4010', api_key: 'crm_test_a', pid: dead, started_at: at(1) },
        { db: b, base_url: 'http://127.0.0.1:5000', api_key: 'crm_test_b', pid: me, started_at: at(2) },
      ],
    };
    expect(pickSandbox(file, serving).entry?.db).toBe(b);
    const stopped = markStopped(file, me, at(3))!;
    expect(stopped.sandboxes[1]).toMatchObject({ pid: null, stopped_at: at(3) });
    expect(pickSandbox(stopped, serving)).toEqual({ stopped: stopped.sandboxes });
  });

  it('a restart on the same database keeps its key and takes the new URL and pid; a dead :memory: entry goes', async () => {
    const dead = await deadPid();
    const file: SandboxFile = {
      version: 2,
      default_db: a,
      sandboxes: [
        { db: a, base_url: 'http://127.0.0.1:4010', api_key: 'crm_test_a', pid: null, started_at: at(1), stopped_at: at(2) },
        { db: ':memory:', base_url: 'http://127.0.0.1:6000', api_key: 'crm_test_m', pid: dead, started_at: at(1) },
      ],
    };
    const again = updateEntry(file, dir, { baseUrl: 'http://127.0.0.1:4321', apiKey: undefined, db: a, pid: me, now: at(4) }, serving)!;
    expect(again.file.sandboxes).toEqual([{ db: a, base_url: 'http://127.0.0.1:4321', api_key: 'crm_test_a', pid: me, started_at: at(4) }]);
    // No key known anywhere: nothing a command could use, nothing written.
    expect(updateEntry(undefined, dir, { baseUrl: 'http://127.0.0.1:4321', apiKey: undefined, db: b, pid: me, now: at(4) }, serving)).toBeUndefined();
  });
});
