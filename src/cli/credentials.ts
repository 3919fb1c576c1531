import { existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { makePrivateDir, writePrivateFile } from '../private-files.js';
import { CliError } from './output.js';
import {
  distrustMessage,
  markStopped,
  noneRunningMessage,
  pickSandbox,
  readSandboxFile,
  sandboxFilePath,
  updateEntry,
  type SandboxEntry,
} from './sandbox-file.js';
import { EXIT } from './exit-codes.js';

/**
 * Where a command's base URL and API key come from (docs/sync.md#credentials), highest first:
 *   1. --base-url / --api-key flags
 *   2. CRM_BASE_URL / CRM_API_KEY
 *   3. the profile named by --profile or CRM_PROFILE (in $XDG_CONFIG_HOME/crm/config.json)
 *   4. .crm/sandbox.json of the current folder (written by `crm sandbox start`), when it passes
 *      sandbox-trust.ts's checks; otherwise it is ignored with a line saying why
 *   5. the default profile
 * A stored key is only used with its own base URL: when a flag or variable names another server,
 * a sandbox or profile key is not sent there (that would leak it).
 */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';
export const DEFAULT_PROFILE = 'default';

type CredentialSource = 'flags' | 'env' | 'profile' | 'sandbox-file' | 'default-profile' | 'none';

export interface Credentials {
  baseUrl: string;
  apiKey?: string;
  /** Where the key came from (or the base URL, when there is no key). */
  source: CredentialSource;
  /** The profile used, or the sandbox file path, for `crm whoami`. */
  from?: string;
  /** Things the user should know (a profile file others can read). */
  warnings: string[];
  /** Why no key was found, when there is more to say than how to log in (the folder's sandbox stopped). */
  noKeyReason?: string;
}

interface Profile {
  base_url: string;
  api_key: string;
}

interface ConfigFile {
  profiles: Record<string, Profile>;
}

export interface ResolveInput {
  flags: { baseUrl?: string; apiKey?: string };
  env: NodeJS.ProcessEnv;
  profile?: string;
  cwd: string;
}

const clean = (value: string | undefined): string | undefined => (value && value.trim() !== '' ? value.trim() : undefined);
const sameServer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = clean(env.XDG_CONFIG_HOME) ?? join(homedir(), '.config');
  return join(base, 'crm', 'config.json');
}

/** Reads the profiles file; warns when group or others may read it (it holds secrets). */
export function readConfig(env: NodeJS.ProcessEnv = process.env, warnings: string[] = []): ConfigFile {
  const path = configPath(env);
  if (!existsSync(path)) return { profiles: {} };
  const mode = statSync(path).mode & 0o777;
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    warnings.push(`${path} can be read by other users (mode ${mode.toString(8)}); it holds API keys. Run: chmod 600 ${path}`);
  }
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ConfigFile>;
    return { profiles: parsed.profiles && typeof parsed.profiles === 'object' ? parsed.profiles : {} };
  } catch (error) {
    throw new CliError(`${path} is not valid JSON (${(error as Error).message}). Fix it, or delete it and run \`crm login\` again.`, EXIT.usage);
  }
}

/** Writes a secrets file readable by its owner only, atomically (a crash never leaves half a file). */
function writeSecretFile(path: string, value: unknown): void {
  makePrivateDir(dirname(path));
  const temp = `${path}.${process.pid}.tmp`;
  writePrivateFile(temp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temp, path);
}

export function writeConfig(config: ConfigFile, env: NodeJS.ProcessEnv = process.env): string {
  const path = configPath(env);
  writeSecretFile(path, config);
  return path;
}

/**
 * `crm sandbox start` records its URL, admin key and pid for the commands run in the same folder
 * (sandbox-file.ts). When the key is not known (made on an earlier start of the same database),
 * that database's entry keeps its key and gets the new URL and pid.
 */
export function recordSandbox(
  cwd: string,
  start: { baseUrl: string; apiKey: string | undefined; db: string; pid: number },
): { path: string; otherDefault?: SandboxEntry; replaced?: SandboxEntry; distrusted?: string } | undefined {
  // A file crm would not believe (another's, or 0644) is replaced, not merged: its entries are not ours.
  const { file, distrusted } = readSandboxFile(cwd);
  const updated = updateEntry(file, cwd, { ...start, now: new Date().toISOString() });
  const path = sandboxFilePath(cwd);
  if (updated) writeSecretFile(path, updated.file);
  // After the write, which may have made .crm/ (a start on --db :memory: or a database elsewhere).
  ignoreInGit(dirname(path));
  if (!updated) return undefined;
  return {
    path,
    ...(updated.otherDefault ? { otherDefault: updated.otherDefault } : {}),
    ...(updated.replaced ? { replaced: updated.replaced } : {}),
    ...(distrusted ? { distrusted } : {}),
  };
}

/**
 * `.crm/` holds the admin key (sandbox.json) and the database: a `.gitignore` of `*` there keeps a
 * `git add .` from committing them. One the user wrote is left as it is.
 */
function ignoreInGit(dir: string): void {
  if (!existsSync(dir) || existsSync(join(dir, '.gitignore'))) return;
  try {
    writePrivateFile(join(dir, '.gitignore'), '# Written by `crm sandbox start`: this folder holds API keys and the sandbox database.\n*\n', 'wx');
  } catch {
    // Another start wrote it first, or the folder is read-only: either way nothing to add.
  }
}

/** A clean stop marks this process's entry stopped, so the file never names a dead sandbox as running. */
export function recordStop(cwd: string, pid: number): void {
  try {
    const file = markStopped(readSandboxFile(cwd).file, pid, new Date().toISOString());
    if (file) writeSecretFile(sandboxFilePath(cwd), file);
  } catch {
    // The folder may be gone or read-only by now; liveness is checked by pid anyway.
  }
}

export function resolveCredentials(input: ResolveInput): Credentials {
  const warnings: string[] = [];
  const flagUrl = clean(input.flags.baseUrl);
  const flagKey = clean(input.flags.apiKey);
  const envUrl = clean(input.env.CRM_BASE_URL);
  const envKey = clean(input.env.CRM_API_KEY);
  const explicitUrl = flagUrl ?? envUrl;

  if (flagKey) return { baseUrl: explicitUrl ?? DEFAULT_BASE_URL, apiKey: flagKey, source: 'flags', warnings };
  if (envKey) return { baseUrl: explicitUrl ?? DEFAULT_BASE_URL, apiKey: envKey, source: 'env', warnings };

  const profileName = clean(input.profile) ?? clean(input.env.CRM_PROFILE);
  const config = readConfig(input.env, warnings);
  const stored: { source: CredentialSource; from: string; base_url: string; api_key: string }[] = [];
  if (profileName) {
    const profile = config.profiles[profileName];
    if (!profile) {
      const known = Object.keys(config.profiles);
      throw new CliError(
        `No profile '${profileName}' in ${configPath(input.env)}${known.length ? ` (profiles: ${known.join(', ')})` : ''}. ` +
          `Save it with: crm login --base-url URL --api-key KEY --profile ${profileName}`,
        2,
      );
    }
    stored.push({ source: 'profile', from: profileName, ...profile });
  }
  const { file: sandboxFile, distrusted } = readSandboxFile(input.cwd);
  const { entry: sandbox, stopped, refused } = pickSandbox(sandboxFile);
  if (sandbox) stored.push({ source: 'sandbox-file', from: sandboxFilePath(input.cwd), base_url: sandbox.base_url, api_key: sandbox.api_key });
  // The folder had sandboxes, none of them running or believed: said whenever it matters (no key, or
  // another source used), unless a flag or variable named the server, which makes the folder's file moot.
  const why = distrusted ?? refused;
  const noSandbox =
    sandbox || explicitUrl ? undefined : why ? distrustMessage(input.cwd, why) : sandboxFile ? noneRunningMessage(input.cwd, stopped) : undefined;
  const fallback = config.profiles[DEFAULT_PROFILE];
  if (fallback) stored.push({ source: 'default-profile', from: DEFAULT_PROFILE, ...fallback });

  // A flag or variable naming the server picks the stored key of that server only.
  const usable = stored.find((s) => !explicitUrl || sameServer(s.base_url, explicitUrl));
  if (usable) {
    if (noSandbox && usable.source === 'default-profile') warnings.push(`${noSandbox} Using the default profile (${usable.base_url}) instead.`);
    return { baseUrl: explicitUrl ?? usable.base_url, apiKey: usable.api_key, source: usable.source, from: usable.from, warnings };
  }
  return {
    baseUrl: explicitUrl ?? DEFAULT_BASE_URL,
    source: explicitUrl ? (flagUrl ? 'flags' : 'env') : 'none',
    warnings,
    ...(noSandbox ? { noKeyReason: noSandbox } : {}),
  };
}

/** The message for a command that needs a key and found none anywhere. */
export const HOW_TO_LOG_IN =
  'No API key found. In the folder where you ran `crm sandbox start` it is found by itself (.crm/sandbox.json); ' +
  'elsewhere run `crm login --base-url URL --api-key KEY`, or pass --api-key / set CRM_API_KEY.';

/** Shows a key without its secret: its prefix only (e.g. crm_test_…). */
export function keyHint(key: string): string {
  const prefix = /^[a-z]+_(?:test|live)_/.exec(key)?.[0] ?? key.slice(0, 4);
  return `${prefix}…`;
}
