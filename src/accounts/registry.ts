import { rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { IdGenerator } from '../domain/ids.js';
import { makePrivateDir, writePrivateFile } from '../private-files.js';
import { ApiError, fieldError, notFound } from '../errors.js';
import { FixtureError, loadFixtures } from '../seed/fixtures.js';
import { fill } from '../seed/fill.js';
import { createApiKey } from '../services/api-keys.js';
import { createContext } from '../services/context.js';
import { renewPaymentLinks } from '../services/payment-links.js';
import { accountRows, deleteAccount, insertAccount, snapshotFilesOf, templateImage, updateAccountPlan, type AccountRow } from '../store/account-registry.js';
import { closeDb, metaValue, openDb, type Db } from '../store/db.js';
import { Account } from './account.js';
import { CredentialIndex } from './credential-index.js';
import { renewSharedPaymentTokens } from './payment-tokens.js';
import { TRIAL_DAYS, type Plan, type StartLimits } from '../domain/plans.js';

export interface RegistryOptions {
  /** The sandbox's main database: the default account's, and the registry's. */
  db: Db;
  /** Its path, or ':memory:' (then every account lives in memory). */
  dbPath: string;
  start: StartLimits;
  baseUrl: () => string;
}

export interface CreateAccount {
  name: string;
  plan?: Plan | undefined;
  /** As --seed; null for an empty account. */
  seed?: number | null | undefined;
  fixtures?: string | undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const CREDENTIAL_CACHE = 10_000;

/** A fixtures folder that is missing or wrong is the caller's mistake: 422 naming the problem, no account made. */
function loadAccountFixtures(account: Account, dir: string): void {
  try {
    loadFixtures(account.ctx, dir);
  } catch (error) {
    if (error instanceof FixtureError) throw fieldError('fixtures', 'invalid_fixtures', error.message);
    throw error;
  }
}

/**
 * The accounts of a sandbox, each in its own SQLite database (docs/accounts.md: why
 * not an account column). New accounts are copies of a seeded template made once per seed, so
 * making one costs a file write, not a seed. Requests find their account through the credential
 * they carry (`find`): the default account's tables first, then the others', cached.
 */
export class AccountRegistry {
  readonly default: Account;
  private readonly accounts = new Map<string, Account>();
  private readonly byCredential = new Map<string, Account>();
  private readonly credentials = new CredentialIndex(() => this.accounts.values());
  private readonly templates = new Map<string, Buffer>();
  private readonly ids = new IdGenerator();
  private startWorker: ((account: Account) => Account['worker']) | undefined;

  constructor(private readonly options: RegistryOptions) {
    const { db } = options;
    const defaultId = metaValue(db, 'default_account_id', () => this.ids.next('acct'));
    for (const row of accountRows(db, defaultId)) {
      if (row.is_default) this.add(new Account(row, db, this.inMemory ? null : options.dbPath, options.start, options.baseUrl));
      else if (!this.inMemory) this.add(new Account(row, openDb(this.fileOf(row.id)), this.fileOf(row.id), options.start, options.baseUrl));
      // An in-memory sandbox's other accounts died with its last process: forget them.
      else deleteAccount(db, row.id);
    }
    this.default = this.accounts.get(defaultId)!;
    renewSharedPaymentTokens(this.list());
  }

  private get inMemory(): boolean {
    return this.options.dbPath === ':memory:';
  }

  /** `data/sandbox.db` keeps its other accounts in `data/sandbox.accounts/acct_….db`. */
  private fileOf(id: string): string {
    const path = this.options.dbPath;
    return join(dirname(path), `${basename(path).replace(/\.[^.]*$/, '')}.accounts`, `${id}.db`);
  }

  private add(account: Account): void {
    this.accounts.set(account.id, account);
    if (this.startWorker) account.worker = this.startWorker(account);
  }

  /** Starts every account's webhook worker, and each new account's from now on (after listening: the worker loads lazily). */
  startWorkers(start: (account: Account) => Account['worker']): void {
    this.startWorker = start;
    for (const account of this.accounts.values()) account.worker = start(account);
  }

  list(): Account[] {
    return [...this.accounts.values()];
  }

  get(id: string): Account {
    const account = this.accounts.get(id);
    if (!account) throw notFound('account', id);
    return account;
  }

  /**
   * The account whose database `has` the credential (a key's hash, a session's, an OAuth client),
   * or undefined. `key` caches the answer; a revoked key still finds its account, which then says no.
   * Payment tokens ask every account instead (payment-tokens.ts): a token two held must be refused.
   */
  find(key: string, has: (db: Db) => boolean): Account | undefined {
    const cached = this.byCredential.get(key);
    if (cached && this.accounts.has(cached.id)) return cached;
    for (const account of this.accounts.values()) {
      if (!has(account.db)) continue;
      if (this.byCredential.size >= CREDENTIAL_CACHE) this.byCredential.clear();
      this.byCredential.set(key, account);
      return account;
    }
    return undefined;
  }

  /** The account that issued a key, OAuth token, dashboard sign-in or session, by the credential's hash. */
  ownerOfCredential(hash: string): Account | undefined {
    return this.credentials.owner(hash);
  }

  /** A seeded (or empty) database image per seed, made once: new accounts are copies of it. */
  private template(seed: number | null): Buffer {
    const key = String(seed);
    let image = this.templates.get(key);
    if (!image) {
      const db = openDb(':memory:');
      // On the sandbox's URL: the copies' mail and events hold payment links.
      fill(createContext(db, this.options.baseUrl), { seed: seed ?? false });
      // Each copy makes its own cursor secret and sign-in state.
      image = templateImage(db);
      db.close();
      this.templates.set(key, image);
    }
    return image;
  }

  create(input: CreateAccount): { account: Account; apiKey: string } {
    const id = this.ids.next('acct');
    const now = Date.now();
    const plan = input.plan ?? 'free';
    const row: AccountRow = {
      id,
      name: input.name,
      plan,
      trial_ends_at: plan === 'trial' ? new Date(now + TRIAL_DAYS * DAY_MS).toISOString() : null,
      trial_used: plan === 'trial' ? 1 : 0,
      is_default: 0,
      created_at: new Date(now).toISOString(),
    };
    const image = this.template(input.seed === undefined ? 1 : input.seed);
    let db: Db;
    if (this.inMemory) db = openDb(image);
    else {
      const file = this.fileOf(id);
      makePrivateDir(dirname(file));
      writePrivateFile(file, image, 'wx');
      db = openDb(file);
    }
    try {
      const account = new Account(row, db, this.inMemory ? null : this.fileOf(id), this.options.start, this.options.baseUrl);
      // The template's tokens are in every copy: a token must name one account (docs/security.md#payment-links).
      renewPaymentLinks(account.ctx);
      if (input.fixtures) loadAccountFixtures(account, input.fixtures);
      const apiKey = createApiKey(account.ctx, { name: 'Account admin', scopes: ['*'] }).secret;
      insertAccount(this.options.db, row);
      this.add(account);
      return { account, apiKey };
    } catch (error) {
      closeDb(db);
      if (!this.inMemory) this.removeFiles(id);
      throw error;
    }
  }

  /** Deletes an account and frees its storage: its database file goes, and its snapshots. */
  async delete(id: string): Promise<void> {
    const account = this.get(id);
    if (account.isDefault) throw new ApiError('conflict', 'The default account cannot be deleted (it holds the sandbox admin key).');
    this.accounts.delete(id);
    for (const [key, cached] of this.byCredential) if (cached === account) this.byCredential.delete(key);
    this.credentials.forget();
    await (await account.worker)?.stop();
    account.meter.flush();
    account.requestLog.flush();
    const snapshots = snapshotFilesOf(this.options.db, id);
    deleteAccount(this.options.db, id);
    closeDb(account.db);
    if (!this.inMemory) this.removeFiles(id);
    for (const file of snapshots) rmSync(file, { force: true });
  }

  private removeFiles(id: string): void {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${this.fileOf(id)}${suffix}`, { force: true });
  }

  /** Writes a changed plan or trial to the registry and to the open account. */
  update(account: Account, changes: Partial<Pick<AccountRow, 'plan' | 'trial_ends_at' | 'trial_used'>>): void {
    const row = { ...account.row, ...changes };
    updateAccountPlan(this.options.db, row);
    account.setPlan(row);
  }

  /** On stop: every account's worker, usage counts flushed, databases closed (the main one by the caller). */
  async close(): Promise<void> {
    await Promise.all(this.list().map(async (a) => (await a.worker)?.stop()));
    for (const account of this.list()) {
      account.meter.flush();
      account.requestLog.flush();
      if (!account.isDefault) closeDb(account.db);
    }
  }
}
