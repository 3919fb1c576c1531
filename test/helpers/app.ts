import { afterAll, beforeAll } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/index.js';
import { useCheckpointWorker } from '../../src/store/checkpoint-thread.js';
import { apiClient, type ApiClient } from './sandbox.js';

/**
 * The sandbox in the test's own process (docs/testing.md): the package's startSandbox() from the
 * sources, on a real port with a real HTTP server and its own database file, without a child
 * process or a build. For tests that only speak HTTP; a test of the command itself (its exit code,
 * signals, stderr, files in .crm/) uses useSandbox, which runs bin/crm.js.
 */
export interface RunningApp {
  baseUrl: string;
  apiKey: string;
  /** The single-use dashboard sign-in link, as `crm sandbox start` prints it. */
  dashboardUrl: string;
  /** The database file (in a temporary folder of its own), or ':memory:'. */
  db: string;
  /** The package API's handle: accounts, snapshots, reset. */
  handle: SandboxHandle;
  stop(): Promise<void>;
}

export interface AppOptions extends SandboxOptions {
  /** As `crm sandbox start --seed`: false (the default here) for an empty database. */
  seed?: number | false;
}

// The compiled checkpoint thread, when the build is there: bulk writes then checkpoint as the
// command's do. Without it the server's own connection checkpoints, as in the single binary.
const CHECKPOINT_WORKER = join(import.meta.dirname, '..', '..', 'dist', 'store', 'checkpoint-worker.js');
if (existsSync(CHECKPOINT_WORKER)) useCheckpointWorker(CHECKPOINT_WORKER);

/**
 * Starts one in-process sandbox. Defaults are useSandbox's (`crm sandbox start`'s but for the rate
 * limit, high enough never to throttle a suite while keeping its headers) except the seed: none
 * unless asked, as most tests make the records they look at.
 */
export async function startApp(options: AppOptions = {}): Promise<RunningApp> {
  const dir = options.db ? undefined : mkdtempSync(join(tmpdir(), 'crm-app-'));
  const db = options.db ?? join(dir!, 'sandbox.db');
  const handle = await startSandbox({ rateLimit: '10000/1s', quota: '100000/1d', logLevel: 'silent', ...options, seed: options.seed ?? false, db });
  return {
    baseUrl: handle.baseUrl,
    apiKey: handle.apiKey!,
    dashboardUrl: handle.dashboardUrl!,
    db,
    handle,
    async stop() {
      await handle.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One in-process sandbox for a test file: started before its tests, stopped after them. `ready`
 * hands it and its OpenAPI-checked client to the file's own variables, as useSandbox does.
 */
export function useApp(options: AppOptions, ready: (app: RunningApp, api: ApiClient) => void): void {
  useSandboxes(1, options, ([app], [api]) => ready(app!, api!));
}

/** Several independent in-process sandboxes for a test file (a sync's source and target, say), started together. */
export function useSandboxes(count: number, options: AppOptions | AppOptions[], ready: (apps: RunningApp[], apis: ApiClient[]) => void): void {
  let apps: RunningApp[] = [];
  beforeAll(async () => {
    const each = Array.from({ length: count }, (_, i) => (Array.isArray(options) ? (options[i] ?? {}) : options));
    apps = await Promise.all(each.map((o) => startApp(o)));
    ready(apps, apps.map(apiClient));
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
  });
}
