import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileDistrust, isLoopbackUrl, isServingSandbox } from './sandbox-trust.js';

/**
 * `.crm/sandbox.json`: the sandboxes started from a folder, so that crm commands run there find
 * one by themselves (docs/sync.md#credentials). Several may run from one folder (one per database), so the file
 * keeps one entry per database, each with the pid of the process serving it:
 *
 *   { "version": 2, "default_db": "/abs/.crm/sandbox.db",
 *     "sandboxes": [ { "db", "base_url", "api_key", "pid", "started_at", "stopped_at"? } ] }
 *
 * - A start adds or refreshes the entry of its database (new port, new pid). It never touches
 *   another database's entry, and becomes the folder's default only when the default is not live.
 * - A clean stop marks its entry stopped (pid null); a killed process leaves its pid, which no
 *   longer names a running `crm sandbox start`. Either way the entry stays: its key is the only
 *   copy (keys are stored hashed), and a restart on the same database takes it back.
 * - Commands use the default when it is live, else the live one started first; when none is
 *   live they say so instead of calling a dead port.
 * - Any folder may carry such a file (a cloned repository): it is believed only when
 *   sandbox-trust.ts says this user's running sandbox wrote it; otherwise commands say why and
 *   go on without it.
 * docs/sandbox.md, "Several sandboxes in one folder".
 */
export interface SandboxEntry {
  /** The database's absolute path, or ':memory:'. */
  db: string;
  base_url: string;
  api_key: string;
  /** The process serving it; null once it stopped cleanly. */
  pid: number | null;
  started_at: string;
  stopped_at?: string;
}

export interface SandboxFile {
  version: 2;
  default_db?: string;
  sandboxes: SandboxEntry[];
}

export function sandboxFilePath(cwd: string = process.cwd()): string {
  return join(cwd, '.crm', 'sandbox.json');
}

/** Signal 0 checks that a process exists without touching it; EPERM means it does (another user's). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const isEntry = (e: unknown): e is SandboxEntry => {
  const x = e as Partial<SandboxEntry> | null;
  return !!x && typeof x.db === 'string' && typeof x.base_url === 'string' && typeof x.api_key === 'string';
};

/** What was read: the entries, or why the file is not believed (sandbox-trust.ts), or neither (no file, or a broken one). */
export interface SandboxFileRead {
  file?: SandboxFile;
  distrusted?: string;
}

/**
 * The file as entries, if it is one crm wrote for this user (owner, mode 0600: sandbox-trust.ts).
 * One written by an older crm (`{base_url, api_key, db}`, no pid) becomes an entry without a pid,
 * which is never used: the next start rewrites it. A broken file reads as empty: `crm sandbox start`
 * writes it again.
 */
export function readSandboxFile(cwd: string): SandboxFileRead {
  const path = sandboxFilePath(cwd);
  if (!existsSync(path)) return {};
  const distrusted = fileDistrust(path);
  if (distrusted) return { distrusted };
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
  if (parsed && Array.isArray(parsed.sandboxes)) {
    return {
      file: { version: 2, ...(typeof parsed.default_db === 'string' ? { default_db: parsed.default_db } : {}), sandboxes: parsed.sandboxes.filter(isEntry) },
    };
  }
  if (isEntry({ db: '', ...parsed })) {
    const legacy = parsed as unknown as { base_url: string; api_key: string; db?: string };
    return {
      file: {
        version: 2,
        sandboxes: [{ db: legacy.db ?? '', base_url: legacy.base_url, api_key: legacy.api_key, pid: undefined as unknown as null, started_at: '' }],
      },
    };
  }
  return {};
}

/** Whether a pid is a running sandbox of this user: sandbox-trust.ts's check, or another (the unit tests'). */
export type Serving = (pid: number | null | undefined) => boolean;

/**
 * Why an entry is not believed, or undefined. A clean stop (pid null) or a process that is gone
 * is no reason to distrust it: that is "stopped", which noneRunningMessage says.
 */
function entryDistrust(e: SandboxEntry, serving: Serving): string | undefined {
  if (!isLoopbackUrl(e.base_url)) return `it names ${e.base_url}, not this machine's loopback (127.0.0.1, localhost, [::1])`;
  if (e.pid !== null && !(Number.isInteger(e.pid) && e.pid > 0)) return `its entry for ${e.base_url} records no pid of a running sandbox`;
  if (e.pid !== null && exists(e.pid) && !serving(e.pid)) return `pid ${e.pid}, which it names for ${e.base_url}, is not a \`crm sandbox start\` of yours`;
  return undefined;
}

/** The entry commands in this folder use; else all entries as stopped, and `refused` says why one of them is not believed. */
export function pickSandbox(
  file: SandboxFile | undefined,
  serving: Serving = isServingSandbox,
): { entry?: SandboxEntry; stopped: SandboxEntry[]; refused?: string } {
  if (!file) return { stopped: [] };
  const problems = file.sandboxes.map((e) => entryDistrust(e, serving));
  const live = file.sandboxes.filter((e, i) => !problems[i] && serving(e.pid));
  const preferred = live.find((e) => e.db === file.default_db) ?? [...live].sort((a, b) => a.started_at.localeCompare(b.started_at))[0];
  if (preferred) return { entry: preferred, stopped: [] };
  const refused = problems.find((p) => p !== undefined);
  return { stopped: file.sandboxes, ...(refused ? { refused } : {}) };
}

/** "Ignoring …/sandbox.json: <why>." with what to do, in one line: for a file or an entry that is not believed. */
export function distrustMessage(cwd: string, why: string): string {
  return (
    `Ignoring ${sandboxFilePath(cwd)}: ${why}. If your own \`crm sandbox start\` wrote it, run it again here (it rewrites the file); ` +
    'otherwise delete the file, or pass --base-url and --api-key.'
  );
}

/** "No sandbox of this folder is running: …" with what was there and what to do. */
export function noneRunningMessage(cwd: string, stopped: SandboxEntry[]): string {
  const shown = stopped
    .filter((e) => e.db !== ':memory:')
    .map((e) => `${relative(cwd, e.db) || e.db} (last at ${e.base_url})`)
    .join(', ');
  return (
    `No sandbox started in this folder is running${shown ? ` (${sandboxFilePath(cwd)} names ${shown}, stopped)` : ''}. ` +
    'Start it with `crm sandbox start` (the same --db keeps its key), or pass --base-url and --api-key.'
  );
}

/**
 * Adds or refreshes this sandbox's entry. Without a key (a restart of a database whose key was
 * made earlier and is not in the file) there is nothing a command could use: nothing is written.
 */
export function updateEntry(
  file: SandboxFile | undefined,
  cwd: string,
  start: { baseUrl: string; apiKey: string | undefined; db: string; pid: number; now: string },
  serving: Serving = isServingSandbox,
): { file: SandboxFile; otherDefault?: SandboxEntry; replaced?: SandboxEntry } | undefined {
  const db = start.db === ':memory:' ? ':memory:' : resolve(cwd, start.db);
  const sandboxes = (file?.sandboxes ?? []).filter(
    // Dropped: this database's old entry (replaced below), throwaway databases whose process is gone
    // (their key died with them), files that no longer exist, and entries from an older crm.
    (e) => !(db !== ':memory:' && e.db === db) && !(e.db === ':memory:' && !serving(e.pid)) && (e.db === ':memory:' || existsSync(e.db)) && e.pid !== undefined,
  );
  const previous = db === ':memory:' ? undefined : file?.sandboxes.find((e) => e.db === db);
  const apiKey = start.apiKey ?? previous?.api_key;
  if (!apiKey) return undefined;
  // Two processes on one database file: the newer entry wins, and the start says so.
  const replaced = previous && previous.pid !== start.pid && serving(previous.pid) ? previous : undefined;
  sandboxes.push({ db, base_url: start.baseUrl, api_key: apiKey, pid: start.pid, started_at: start.now });
  const current = file?.default_db ? sandboxes.find((e) => e.db === file.default_db && e.db !== db && serving(e.pid)) : undefined;
  const otherLive = current ?? sandboxes.filter((e) => e.pid !== start.pid && serving(e.pid)).sort((a, b) => a.started_at.localeCompare(b.started_at))[0];
  const defaultDb = otherLive ? otherLive.db : db;
  return { file: { version: 2, default_db: defaultDb, sandboxes }, ...(otherLive ? { otherDefault: otherLive } : {}), ...(replaced ? { replaced } : {}) };
}

/** A clean stop: its entry says so (pid null), a throwaway database's entry goes. Another process's entry is never touched. */
export function markStopped(file: SandboxFile | undefined, pid: number, now: string): SandboxFile | undefined {
  if (!file || !file.sandboxes.some((e) => e.pid === pid)) return undefined;
  const sandboxes = file.sandboxes
    .filter((e) => !(e.pid === pid && e.db === ':memory:'))
    .map((e) => (e.pid === pid ? { ...e, pid: null, stopped_at: now } : e));
  return { ...file, sandboxes };
}
