import { ApiError } from '../errors.js';
import { renewPaymentLinks } from '../services/payment-links.js';
import { holdsPaymentToken, paymentTokens } from '../store/credential-owners.js';
import type { Account } from './account.js';

/**
 * A payment token belongs to exactly one account (docs/security.md#payment-links): `/pay/{token}` needs no key, so the
 * token alone must say whose invoice it is. New accounts, restored snapshots and the seed image
 * get tokens of their own (services/payment-links.ts); this file keeps the rule across accounts.
 */

const holds = (account: Account, token: string) => holdsPaymentToken(account.db, token);

/**
 * The one account whose invoice has this token, or undefined when none has. Every account is
 * asked, not just until the first answer: were two to hold it, the page would refuse (409)
 * rather than guess which one the payer meant.
 */
export function paymentTokenOwner(accounts: Account[], token: string): Account | undefined {
  const holders = accounts.filter((account) => holds(account, token));
  if (holders.length > 1) {
    throw new ApiError(
      'conflict',
      'This payment link is held by more than one account, so the sandbox will not guess whose invoice it is. Ask for the invoice to be sent again.',
    );
  }
  return holders[0];
}

/**
 * Gives new tokens to every invoice whose token another account also holds: accounts made before
 * tokens were per account were copies of one template and share theirs. Run when the registry
 * opens the accounts; every holder gets new links, as none of them is more the owner than another.
 */
export function renewSharedPaymentTokens(accounts: Account[]): void {
  const holders = new Map<string, number>();
  for (const account of accounts) {
    for (const token of paymentTokens(account.db)) {
      holders.set(token, (holders.get(token) ?? 0) + 1);
    }
  }
  const shared = new Set([...holders].filter(([, count]) => count > 1).map(([token]) => token));
  if (shared.size) for (const account of accounts) renewPaymentLinks(account.ctx, { only: shared });
}
