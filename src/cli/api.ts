import { CrmClient, type ClientOptions } from '../client/client.js';
import { CrmApiError, CrmNetworkError } from '../client/errors.js';
import { HOW_TO_LOG_IN } from './credentials.js';
import { CliError, terminalSafeDeep } from './output.js';
import { EXIT } from './exit-codes.js';

export interface GlobalOptions {
  baseUrl: string;
  apiKey?: string;
  json: boolean;
  /** Set by the credential resolution when the folder's sandbox is not running (main.ts). */
  noKeyReason?: string;
}

/** The key every command that talks to a server needs, or the message that says how to get one. */
export function requireApiKey(options: GlobalOptions): string {
  // A stopped sandbox is not a usage error: the command was right, the server is not there (exit 1).
  if (!options.apiKey) throw options.noKeyReason ? new CliError(options.noKeyReason, EXIT.failure) : new CliError(HOW_TO_LOG_IN, EXIT.usage);
  return options.apiKey;
}

/** The client for commands that talk to a server; they all need a key. `tuning` sets retries, connections, etc. */
export function clientFor(options: GlobalOptions, tuning: Omit<ClientOptions, 'baseUrl' | 'apiKey'> = {}): CrmClient {
  return new CrmClient({ ...tuning, baseUrl: options.baseUrl, apiKey: requireApiKey(options) });
}

/**
 * A person waits at the prompt: a refused connection (nothing listens) fails at once, anything
 * else gets two quick retries, then the message says what to do. Long jobs pass their own tuning.
 */
const INTERACTIVE: Omit<ClientOptions, 'baseUrl' | 'apiKey'> = { retry: { maxRetries: 2 }, retryRefused: false };

/** Runs a command body with a client and turns API and network failures into messages that say what to do. */
export async function withClient<T>(
  options: GlobalOptions,
  run: (client: CrmClient) => Promise<T>,
  tuning: Omit<ClientOptions, 'baseUrl' | 'apiKey'> = INTERACTIVE,
): Promise<T> {
  const client = clientFor(options, tuning);
  try {
    // What the command prints for people comes from here: strings a server sent are shown with
    // their control characters escaped (output.ts). --json prints them as sent, inside JSON.
    const result = await run(client);
    return options.json ? result : terminalSafeDeep(result);
  } catch (error) {
    if (error instanceof CrmNetworkError) throw new CliError(error.message);
    if (error instanceof CrmApiError) {
      const hint = error.status === 401 ? ' Check the key: `crm whoami` shows which one was used.' : error.status === 403 ? ' Use a key with that scope.' : '';
      // The detail often names the first problem already ("…: scopes.0: Invalid option"): each is said once.
      const fields = (error.errors ?? [])
        .filter((e) => !error.message.includes(e.message))
        .map((e) => `\n  ${e.path}: ${e.message}`)
        .join('');
      throw new CliError(`${error.message}${fields}${hint}`);
    }
    throw error;
  } finally {
    await client.close();
  }
}
