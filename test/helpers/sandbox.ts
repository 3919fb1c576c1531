import { afterAll, beforeAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { checkResponse } from './openapi-check.js';

export const CRM_BIN = join(import.meta.dirname, '..', '..', 'bin', 'crm.js');

export interface RunningSandbox {
  baseUrl: string;
  apiKey: string;
  /** The single-use dashboard sign-in link the sandbox printed. */
  dashboardUrl: string;
  db: string;
  process: ChildProcess;
  /** Everything the process wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** How the process ended: its exit code, or the signal that killed it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs `bin/crm sandbox start --port 0 --json` as a user would and waits for its one JSON line.
 * Each sandbox gets its own database file in a fresh temporary folder unless one is given.
 */
export async function startSandboxProcess(
  args: string[] = [],
  options: { db?: string; env?: NodeJS.ProcessEnv; cwd?: string; node?: string /** an installed `crm` to run instead of bin/crm.js */; command?: string } = {},
): Promise<RunningSandbox> {
  const db = options.db ?? join(mkdtempSync(join(tmpdir(), 'crm-test-')), 'sandbox.db');
  // Suites send bursts of requests; a high limit keeps the rate-limit headers without throttling them.
  const limits = args.includes('--rate-limit') ? [] : ['--rate-limit', '10000/1s'];
  const cwd = options.cwd ?? dirname(db);
  mkdirSync(cwd, { recursive: true });
  const argv = ['sandbox', 'start', '--port', '0', '--json', '--db', db, ...limits, ...args];
  const child = spawn(options.command ?? options.node ?? process.execPath, options.command ? argv : [CRM_BIN, ...argv], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    // It writes .crm/sandbox.json into its working folder: the database's folder, never the checkout.
    cwd,
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const exited = ended.then(({ code }) => code);
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    exited.then((code) => reject(new Error(`sandbox exited with ${code} before it was ready:\n${stderr}`)));
  });
  const ready = JSON.parse(firstLine) as { base_url: string; api_key: string; dashboard_url: string; db: string; pid: number };
  return {
    baseUrl: ready.base_url,
    apiKey: ready.api_key,
    dashboardUrl: ready.dashboard_url,
    db,
    process: child,
    stderr: () => stderr,
    exited: ended,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export function tempDir(prefix = 'crm-test-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * A small HTTP client for tests. Every JSON response is checked against the OpenAPI document
 * the sandbox publishes, so the suite as a whole proves that the document tells the truth.
 */
export function apiClient(sandbox: { baseUrl: string; apiKey: string }) {
  async function request<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string | Buffer; key?: string | null; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? sandbox.apiKey : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${sandbox.baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const parsed = /json/.test(type) && text ? JSON.parse(text) : text;
    await checkResponse(sandbox.baseUrl, method, path, response.status, type, parsed);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }
  return {
    request,
    get: <T = any>(path: string, o?: Parameters<typeof request>[2]) => request<T>('GET', path, o),
    post: <T = any>(path: string, body?: unknown, o?: Parameters<typeof request>[2]) => request<T>('POST', path, { ...o, body }),
    patch: <T = any>(path: string, body?: unknown, o?: Parameters<typeof request>[2]) => request<T>('PATCH', path, { ...o, body }),
    delete: <T = any>(path: string, o?: Parameters<typeof request>[2]) => request<T>('DELETE', path, o),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

/**
 * One sandbox process for a test file: started before its tests, stopped after them. `ready`
 * hands the running sandbox and its checked API client to the file's own variables.
 */
export function useSandbox(args: string[], ready: (sandbox: RunningSandbox, api: ApiClient) => void): void {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandboxProcess(args);
    ready(sandbox, apiClient(sandbox));
  });
  afterAll(async () => {
    await sandbox?.stop();
  });
}

/**
 * Rate limits count in fixed windows of the clock (docs/reference/limits.md#rate-limits-and-quotas: a minute, a UTC day). A test that
 * needs a few requests in one window calls this first: it waits, when fewer than `minLeftMs`
 * remain in the current window, until the next one begins.
 */
export async function clearOfWindowEnd(windowMs: number, minLeftMs = 10_000): Promise<void> {
  const msLeft = windowMs - (Date.now() % windowMs);
  if (msLeft < minLeftMs) await new Promise((resolve) => setTimeout(resolve, msLeft + 50));
}
