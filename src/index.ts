/**
 * The package API, for test runners' global setup and for receivers of our webhooks:
 *
 *   import { startSandbox } from 'crm-sandbox';
 *   const sandbox = await startSandbox();            // a free port, an in-memory database
 *   process.env.CRM_BASE_URL = sandbox.baseUrl;
 *   ...
 *   await sandbox.stop();
 */
import { startSandbox as launch, type SandboxOptions } from './sandbox/sandbox.js';

export type { SandboxOptions };
export { CrmClient } from './client/client.js';
export { CrmApiError, CrmNetworkError } from './client/errors.js';
export { verifyWebhook, WebhookVerificationError } from './webhooks/verify.js';

export interface SandboxHandle {
  baseUrl: string;
  /** The admin key (all scopes); null only when reusing a database file whose key was made earlier. */
  apiKey: string | null;
  /** Deletes all data and seeds again; API keys stay valid. */
  reset(): Promise<void>;
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
  return {
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    reset: async () => {
      sandbox.reset();
    },
    stop: () => sandbox.stop(),
  };
}
