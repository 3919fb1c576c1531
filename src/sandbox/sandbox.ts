import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { planPolicies } from '../domain/plans.js';
import { AccountRegistry } from '../accounts/registry.js';
import type { AssistantConfig } from '../assistant/config.js';
import { buildApp } from '../http/app.js';
import { countApiKeys, createApiKey, hashSecret } from '../services/api-keys.js';
import type { Ctx } from '../services/context.js';
import { runDue } from '../accounts/clock.js';
import { purgeExpiredEvents } from '../services/event-log.js';
import { closeDb, openDb } from '../store/db.js';
import { hasApiKeyHash } from '../store/credential-owners.js';
import { adminKeyId, createLoginToken } from '../services/dashboard-sessions.js';
import { dashboardLoginUrl } from '../http/routes/sandbox.js';
import { fill, resetData } from '../seed/fill.js';
import { isEmpty } from '../store/seed-fill.js';
import { adoptSeedImageFile, renewSeedImageLinks, writeSeedImageFile } from '../seed/seed-image.js';
import { localBaseUrl } from './listen-address.js';
import { listenEarly } from './early-server.js';
import { newDatabaseFiles } from './start-guard.js';

/** How long a stop waits for open responses to finish before it closes their connections. */
const STOP_GRACE_MS = 3_000;

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** A file path, or ':memory:'. */
  db?: string;
  /** The seed for generated data, or false for none. */
  seed?: number | false;
  fixtures?: string;
  /** Register this admin key instead of generating one. */
  apiKey?: string;
  /** Per key or token: "100/1s" (default), "0" for none. */
  rateLimit?: string;
  /** Per key or token: "100000/1d" (default), "0" for none. */
  quota?: string;
  logLevel?: string;
  /** Multiplies the webhook retry schedule (0.001 for tests); 1 by default. */
  webhookTimeScale?: number;
  /** The built-in assistant's model provider (docs/assistant.md); none by default. */
  assistant?: AssistantConfig;
}

export interface Sandbox {
  /** For the user on this machine (127.0.0.1 when listening on every interface). */
  baseUrl: string;
  /** Where the server listens, as bound (0.0.0.0 for every interface). */
  address: AddressInfo;
  /** The admin key, when this start created or registered it; null when it was made earlier. */
  apiKey: string | null;
  db: string;
  /** A single-use sign-in link to the dashboard (15 minutes), bound to the admin key; null when none is left. */
  dashboardUrl: string | null;
  app: FastifyInstance;
  /** The default account's. */
  ctx: Ctx;
  accounts: AccountRegistry;
  reset(): { seeded: boolean };
  stop(): Promise<void>;
}

const DEFAULT_DB = '.crm/sandbox.db';
const DEFAULT_PORT = 4010;
const DEFAULT_RATE_LIMIT = '100/1s';
const DEFAULT_QUOTA = '100000/1d';
/** How long after listening the webhook worker is loaded (see startSandbox). */
const WORKER_LOAD_DELAY_MS = 200;

/** Makes sure an admin key exists; returns the secret when this start created or registered it. */
function ensureAdminKey(ctx: Ctx, apiKey: string | undefined): string | null {
  if (apiKey) {
    const known = hasApiKeyHash(ctx.db, hashSecret(apiKey));
    if (!known) createApiKey(ctx, { name: 'Sandbox admin (--api-key)', scopes: ['*'] }, apiKey);
    return apiKey;
  }
  if (countApiKeys(ctx) > 0) return null;
  return createApiKey(ctx, { name: 'Sandbox admin', scopes: ['*'] }).secret;
}

/**
 * Starts a sandbox: opens (and migrates) the database, seeds it when it is new, makes the admin
 * key, and listens. Used by `crm sandbox start` and by test runners through the package API.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const dbPath = options.db ?? DEFAULT_DB;
  // The port first: a start that cannot listen creates nothing (no database, no admin key unseen).
  // Requests that come while the rest is made wait for it (early-server.ts).
  const early = await listenEarly(options.port ?? DEFAULT_PORT, options.host ?? '127.0.0.1');
  const made = newDatabaseFiles(dbPath);
  let db;
  let fromImage = false;
  try {
    // A new file with the default seed (and no fixtures, which fill() loads) is the build's seed
    // image written whole: no migrating and copying rows (docs/benchmarks.md). Else migrated and filled.
    const imageFits = dbPath !== ':memory:' && !existsSync(dbPath) && (options.seed ?? 1) === 1 && !options.fixtures;
    fromImage = imageFits && writeSeedImageFile(dbPath);
    db = openDb(dbPath);
    if (fromImage) adoptSeedImageFile(db);
  } catch (error) {
    await early.close();
    made.remove();
    throw error;
  }
  let baseUrl = '';
  try {
    const start = { rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT, quota: options.quota ?? DEFAULT_QUOTA };
    // Checked before anything is written: a bad limit is a usage error, not a half-made sandbox.
    planPolicies('pro', start);
    const accounts = new AccountRegistry({ db, dbPath, start, baseUrl: () => baseUrl });
    const ctx = accounts.default.ctx;
    if (fromImage) {
      // The seed's events carry its fixed January clock: once they are 30 days old the clock's due
      // work below drops them anyway. Dropped first, their payment links are not rewritten for
      // nothing (~350 events, ~2 ms of a fresh start; docs/benchmarks.md). The same rows go either way.
      purgeExpiredEvents(ctx);
      renewSeedImageLinks(ctx);
    } else if (isEmpty(db)) fill(ctx, options);
    const apiKey = ensureAdminKey(ctx, options.apiKey);
    const reset = () => resetData(ctx, options);
    const app = await buildApp({
      accounts,
      control: { reset },
      serverFactory: early.factory,
      ...(options.logLevel ? { logLevel: options.logLevel } : {}),
      ...(options.assistant ? { assistant: options.assistant } : {}),
    });
    // What each account's clock makes due (docs/accounts.md#test-clocks): trials ending, invoices turning overdue,
    // idempotency keys (24 h) and events (30 days) expiring. At start and every minute (unref:
    // never keeps the process up); moving a test clock runs it at once.
    const due = () => {
      for (const account of accounts.list()) runDue(accounts, account);
    };
    due();
    const dueTimer = setInterval(due, 60 * 1000).unref();
    const address = early.server.address() as AddressInfo;
    baseUrl = localBaseUrl(address);
    early.serve();
    // Pending deliveries left by an earlier run (even a killed one) are sent from here on.
    // Loaded a moment after listening, not awaited: the worker and its HTTP client (undici,
    // node:http2) cost ~100 ms to load, which would otherwise delay the first requests a client
    // sends as soon as the sandbox is up. Deliveries wait safely in the database meanwhile; the
    // worker's first pump sends whatever is due. A stop before then never loads it.
    let release: (load: boolean) => void = () => undefined;
    const workerModule = new Promise<boolean>((resolve) => (release = resolve)).then((load) => (load ? import('../webhooks/worker.js') : undefined));
    const workerTimer = setTimeout(() => release(true), WORKER_LOAD_DELAY_MS);
    accounts.startWorkers((account) =>
      workerModule.then((loaded) => {
        if (!loaded) return undefined;
        const started = new loaded.WebhookWorker(account.ctx, { timeScale: options.webhookTimeScale ?? 1 });
        started.start();
        return started;
      }),
    );
    const adminId = adminKeyId(ctx);
    const dashboardUrl = adminId ? dashboardLoginUrl(baseUrl, createLoginToken(ctx, adminId).token) : null;
    let stopped = false;
    return {
      baseUrl,
      address,
      apiKey,
      dashboardUrl,
      db: dbPath,
      app,
      ctx,
      accounts,
      reset,
      async stop() {
        if (stopped) return;
        stopped = true;
        clearInterval(dueTimer);
        clearTimeout(workerTimer);
        release(false);
        // Fastify's close waits for every open response; a client that stops reading one can hold
        // the stop (seen in the package test under load: ~70 s). After a grace period the
        // connections still open are closed: a stop is a stop.
        const grace = setTimeout(() => early.closeAllConnections(), STOP_GRACE_MS);
        // app.close() leaves a server it did not make open (serverFactory): closed here.
        await Promise.all([accounts.close(), app.close(), early.close()]);
        clearTimeout(grace);
        closeDb(db);
      },
    };
  } catch (error) {
    await early.close();
    closeDb(db);
    made.remove(); // e.g. a fixture that does not load
    throw error;
  }
}
