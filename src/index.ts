/**
 * The package API, for test runners' global setup and for receivers of our webhooks:
 *
 *   import { startSandbox } from 'crm-sandbox';
 *   const sandbox = await startSandbox();            // a free port, an in-memory database
 *   process.env.CRM_BASE_URL = sandbox.baseUrl;
 *   ...
 *   await sandbox.stop();
 */
import type { Account } from './accounts/account.js';
import { moveClock } from './accounts/clock.js';
import { parseDuration } from './domain/duration.js';
import { restoreSnapshot, saveSnapshot } from './accounts/snapshots.js';
import { startSandbox as launch, type SandboxOptions } from './sandbox/sandbox.js';

export type { SandboxOptions };
export { CrmClient } from './client/client.js';
export { CrmApiError, CrmNetworkError } from './client/errors.js';
export { verifyWebhook, WebhookVerificationError } from './webhooks/verify.js';

/** One account of the sandbox (docs/accounts.md): its own data, keys, clock and snapshots. */
export interface AccountHandle {
  id: string;
  name: string;
  /** The account's admin key: give it to the code under test. */
  apiKey: string;
  /** Saves the account's data, events, deliveries, idempotency keys and clock under `name`. */
  snapshot(name: string): Promise<void>;
  /** Puts a snapshot back (a few milliseconds for the seeded data): restore before each test. */
  restore(name: string): Promise<void>;
  /** Moves the account's clock forward: "7d", "36h", or an RFC 3339 time. */
  advanceClock(byOrTo: string): Promise<void>;
  /** Deletes the account and frees its storage. */
  delete(): Promise<void>;
}

export interface CreateAccountOptions {
  name?: string;
  /** 'pro' here by default (test suites should not meet the free plan's limits by accident). */
  plan?: 'free' | 'trial' | 'pro';
  /** As --seed; null for an empty account. */
  seed?: number | null;
  fixtures?: string;
}

export interface SandboxHandle {
  baseUrl: string;
  /** The admin key (all scopes); null only when reusing a database file whose key was made earlier. */
  apiKey: string | null;
  /** A single-use sign-in link to the dashboard (15 minutes) for the admin key; null when there is no admin key. */
  dashboardUrl: string | null;
  /** Deletes all data and seeds again; API keys stay valid. */
  reset(): Promise<void>;
  /** A new isolated account (seeded unless seed is null), ready in milliseconds: one per test worker. */
  createAccount(options?: CreateAccountOptions): Promise<AccountHandle>;
  /** Snapshots of the default account (the one `apiKey` belongs to). */
  snapshot(name: string): Promise<void>;
  restore(name: string): Promise<void>;
  /** Closes the server and the database. */
  stop(): Promise<void>;
}

/**
 * Starts a sandbox in this process. Defaults suit tests: a free port, an in-memory database, no
 * logging, rate limits high enough never to throttle a suite. Any `crm sandbox start` option
 * can be given.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const sandbox = await launch({ port: 0, db: ':memory:', logLevel: 'silent', rateLimit: '0', quota: '0', ...options });
  const { accounts } = sandbox;
  const registry = accounts.default.db;
  const handle = (account: Account) => ({
    snapshot: async (name: string) => void saveSnapshot(registry, account, name),
    restore: async (name: string) => void restoreSnapshot(registry, account, name),
    advanceClock: async (byOrTo: string) => {
      moveClock(accounts, account, parseDuration(byOrTo) === undefined ? { to: byOrTo } : { advance: byOrTo });
    },
  });
  let made = 0;
  return {
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    dashboardUrl: sandbox.dashboardUrl,
    reset: async () => {
      sandbox.reset();
    },
    createAccount: async (options = {}) => {
      const { account, apiKey } = accounts.create({
        name: options.name ?? `account ${++made}`,
        plan: options.plan ?? 'pro',
        seed: options.seed,
        fixtures: options.fixtures,
      });
      return { id: account.id, name: account.row.name, apiKey, ...handle(account), delete: () => accounts.delete(account.id) };
    },
    snapshot: handle(accounts.default).snapshot,
    restore: handle(accounts.default).restore,
    stop: () => sandbox.stop(),
  };
}
