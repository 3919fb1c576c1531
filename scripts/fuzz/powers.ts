import { basename, dirname, join } from 'node:path';
import { idPools, type IdsAt } from './id-pools.js';

/**
 * The credentials the path fuzzer sends, from most to least powerful (docs/reliability.md#paths---path-runs-n-20-by-default): the sandbox admin
 * key (the default account's), another account's admin key (which must never reach /_sandbox/*), a
 * narrow key of the default account, and none. Each account also gets an observer key, whose
 * requests (usage, request log) are told apart from the fuzzed ones, and records made to be deleted.
 */
export const POWERS = ['admin', 'other', 'narrow', 'none'] as const;
export type Power = (typeof POWERS)[number];

export const ACCOUNTS = ['default', 'other'] as const;
export type AccountName = (typeof ACCOUNTS)[number];

export const NARROW_SCOPES = ['leads:write'];

export interface FuzzAccount {
  id: string;
  adminKey: string;
  /** A key with usage:read and logs:read, used only to observe. */
  observerKey: string;
  observerKeyId: string;
  /** Its SQLite file (the sandbox keeps each account in its own database). */
  db: string;
  /** Ids for path parameters, from this account's collections. */
  idsAt: IdsAt;
  /**
   * Ids for the collections (by template: `/_sandbox/accounts/{id}/snapshots`) where real ones would
   * hurt the run: keys and accounts made to be revoked and deleted, so the fuzzer never deletes those
   * it uses, and the snapshot it saved, so a restore reaches a real one.
   */
  fixedIds: Record<string, string[]>;
}

export interface Powers {
  key: Record<Power, string | null>;
  /** The account whose records a power's requests name. */
  accountOf: Record<Power, AccountName>;
  accounts: Record<AccountName, FuzzAccount>;
  /** Reads of id pools so far: requests of the fuzzer's own that show in usage and the request log. */
  poolReads: { count: number };
}

const VICTIMS = 3;
export const SNAPSHOT = 'fuzz';

async function call(baseUrl: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`fuzz setup: ${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** `x/sandbox.db` keeps its other accounts in `x/sandbox.accounts/acct_….db` (src/accounts/registry.ts). */
function accountFile(mainDb: string, id: string): string {
  return join(dirname(mainDb), `${basename(mainDb).replace(/\.[^.]*$/, '')}.accounts`, `${id}.db`);
}

export async function preparePowers(target: { baseUrl: string; apiKey: string; db: string }): Promise<Powers> {
  const { baseUrl, apiKey } = target;
  const defaultId = (await call(baseUrl, apiKey, 'GET', '/v1/account')).id as string;
  const other = await call(baseUrl, apiKey, 'POST', '/_sandbox/accounts', { name: 'fuzz: another account', plan: 'pro' });
  const victimAccounts: string[] = [];
  for (let i = 0; i < VICTIMS; i++)
    victimAccounts.push((await call(baseUrl, apiKey, 'POST', '/_sandbox/accounts', { name: `fuzz: to delete ${i}`, seed: null })).id);
  // The default account is named too (it cannot be deleted): moving its clock or restoring it is what a foreign key must never do.
  const sandboxAccounts = [defaultId, ...victimAccounts];
  for (const id of sandboxAccounts) await call(baseUrl, apiKey, 'POST', `/_sandbox/accounts/${id}/snapshots`, { name: SNAPSHOT });
  const narrow = await call(baseUrl, apiKey, 'POST', '/v1/api_keys', { name: 'fuzz: narrow', scopes: NARROW_SCOPES });

  const poolReads = { count: 0 };
  async function account(id: string, adminKey: string, db: string): Promise<FuzzAccount> {
    const observer = await call(baseUrl, adminKey, 'POST', '/v1/api_keys', { name: 'fuzz: observer', scopes: ['usage:read', 'logs:read'] });
    const victimKeys: string[] = [];
    for (let i = 0; i < VICTIMS; i++)
      victimKeys.push((await call(baseUrl, adminKey, 'POST', '/v1/api_keys', { name: `fuzz: to revoke ${i}`, scopes: ['leads:read'] })).id);
    const fixedIds = { '/v1/api_keys': victimKeys, '/_sandbox/accounts': sandboxAccounts, '/_sandbox/accounts/{id}/snapshots': [SNAPSHOT] };
    return { id, adminKey, observerKey: observer.secret, observerKeyId: observer.id, db, idsAt: idPools(baseUrl, adminKey, () => poolReads.count++), fixedIds };
  }
  return {
    key: { admin: apiKey, other: other.api_key, narrow: narrow.secret, none: null },
    accountOf: { admin: 'default', other: 'other', narrow: 'default', none: 'default' },
    accounts: {
      default: await account(defaultId, apiKey, target.db),
      other: await account(other.id, other.api_key, accountFile(target.db, other.id)),
    },
    poolReads,
  };
}
