import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { isLoopbackAddress } from '../sandbox/listen-address.js';

/**
 * When crm believes a `.crm/sandbox.json`. The file decides where a command sends its rows, records
 * and MCP calls, and any folder can carry one (a cloned repository, an unpacked archive), so it is
 * used only when everything says that the user's own `crm sandbox start` wrote it and still runs:
 *
 * - the file is the user's (its owner is this process's uid) and mode 0600, as crm writes it: a
 *   git checkout or a copy is 0644 (or another user's), so a committed or planted file never passes;
 * - the entry's base_url is this machine's loopback (127.0.0.0/8, localhost, [::1]);
 * - the entry names a pid, and that process is a `crm sandbox start` of this user: on Linux its
 *   /proc/<pid>/cmdline, elsewhere `ps`. A pid that is gone, or now belongs to another program
 *   (pid 1, an editor, another user's process), does not count.
 *
 * No start-time token is recorded beside the pid: the file is already the user's own, so the pid
 * can only have been reused, and a reused pid passes only if it is again a `crm sandbox start` of
 * this user, on a loopback address. docs/security.md, "The folder's sandbox file".
 */

/** Why the file itself is not believed (owner, mode), or undefined. */
export function fileDistrust(path: string): string | undefined {
  if (process.getuid === undefined) return `crm cannot check who owns ${path} on ${process.platform}`;
  const stat = statSync(path);
  if (stat.uid !== process.getuid()) return `${path} belongs to another user (uid ${stat.uid})`;
  const mode = stat.mode & 0o777;
  if ((mode & 0o077) !== 0)
    return `${path} is mode ${mode.toString(8).padStart(4, '0')}, not 0600 as crm writes it (a checked-out or copied file is not the one your sandbox wrote)`;
  return undefined;
}

/** 127.0.0.0/8, localhost or [::1]: the only places a sandbox started here records. */
export function isLoopbackUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || isLoopbackAddress(host);
}

/** The process's arguments, or undefined when it does not exist (or cannot be seen). */
function commandLine(pid: number): { uid: number; args: string[] } | undefined {
  try {
    if (process.platform === 'linux') {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.at(-1) === '') args.pop();
      return { uid: statSync(`/proc/${pid}`).uid, args };
    }
    // macOS and the BSDs have no /proc: ps prints the owner and the arguments (joined by spaces).
    const [uid, ...args] = execFileSync('ps', ['-o', 'uid=,args=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split(/\s+/);
    return uid && /^\d+$/.test(uid) ? { uid: Number(uid), args } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A crm entry (bin/crm.js, an npm link named crm, the single binary build/crm, the bundle) followed
 * by `sandbox start`; global options may come between (`crm --json sandbox start`).
 */
export function isSandboxStart(args: string[]): boolean {
  const entry = args.findIndex((arg) => /^crm(\.[cm]?js|\.exe)?$/.test(basename(arg)) || basename(arg) === 'cli.bundle.cjs');
  if (entry < 0) return false;
  return args.some((arg, i) => i > entry && arg === 'sandbox' && args[i + 1] === 'start');
}

/** The pid is a running `crm sandbox start` of this user. */
export function isServingSandbox(pid: number | null | undefined): boolean {
  if (!pid || !Number.isInteger(pid) || pid <= 0 || process.getuid === undefined) return false;
  const found = commandLine(pid);
  return !!found && found.uid === process.getuid() && isSandboxStart(found.args);
}
