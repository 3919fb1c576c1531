import { credentialsIssuedIn } from '../services/credential-issues.js';
import { credentialHashes } from '../store/credential-owners.js';
import type { Account } from './account.js';

/**
 * Which account holds a credential: one map from hash to account over every account's keys, OAuth
 * tokens, dashboard sign-ins and sessions. Looking an unknown bearer up in each account's tables
 * took ~24 ms with 300 accounts (docs/security.md#accounts), for anyone who reaches the port; now it is one map
 * lookup. An account's hashes are read again when it issued a credential since (credentialIssued)
 * — only a holder of a valid credential can cause that. Revoked and expired credentials stay in
 * the map: their account answers for them (401 with its reason).
 */
export class CredentialIndex {
  private readonly byHash = new Map<string, Account>();
  private readonly readAt = new Map<Account, number>();

  constructor(private readonly accounts: () => Iterable<Account>) {}

  owner(hash: string): Account | undefined {
    for (const account of this.accounts()) {
      const issued = credentialsIssuedIn(account.db);
      if (this.readAt.get(account) !== issued) this.read(account, issued);
    }
    return this.byHash.get(hash);
  }

  /** An account was deleted: forget everything and read the others again on the next lookup. */
  forget(): void {
    this.byHash.clear();
    this.readAt.clear();
  }

  private read(account: Account, issued: number): void {
    // The default account is read first: should two accounts hold one hash, its answer wins, as before.
    for (const hash of credentialHashes(account.db)) if (!this.byHash.has(hash)) this.byHash.set(hash, account);
    this.readAt.set(account, issued);
  }
}
