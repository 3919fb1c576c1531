import { hashSecret } from '../services/api-keys.js';
import { hasOAuthClient } from '../store/credential-owners.js';
import type { Account } from './account.js';
import { enterAccount } from './current.js';
import { paymentTokenOwner } from './payment-tokens.js';
import type { AccountRegistry } from './registry.js';

/**
 * Which account a credential belongs to, and the request pointed at it: keys, tokens and sessions
 * by their hash in one index over every account (registry.ownerOfCredential); OAuth clients and
 * payment tokens through the accounts' own tables (registry.find). Unknown credentials stay on the
 * default account, which then refuses them as it always did.
 */
function enter(account: Account | undefined): Account | undefined {
  if (account) enterAccount(account);
  return account;
}

/** An API key or an OAuth access token. */
export function enterAccountOfBearer(accounts: AccountRegistry, token: string): Account | undefined {
  return enter(accounts.ownerOfCredential(hashSecret(token)));
}

/** A dashboard session cookie. */
export function enterAccountOfSession(accounts: AccountRegistry, sessionId: string): Account | undefined {
  return enter(accounts.ownerOfCredential(hashSecret(sessionId)));
}

/** A dashboard sign-in token (single use: not cached beyond its one use). */
export function enterAccountOfLoginToken(accounts: AccountRegistry, token: string): Account | undefined {
  return enter(accounts.ownerOfCredential(hashSecret(token)));
}

/** An OAuth client (authorize, token and revoke endpoints). */
export function enterAccountOfClient(accounts: AccountRegistry, clientId: string): Account | undefined {
  return enter(accounts.find(`client:${clientId}`, (db) => hasOAuthClient(db, clientId)));
}

/** An invoice's payment page: the one account that holds the token (payment-tokens.ts), never the first found. */
export function enterAccountOfPaymentToken(accounts: AccountRegistry, token: string): Account | undefined {
  return enter(paymentTokenOwner(accounts.list(), token));
}
