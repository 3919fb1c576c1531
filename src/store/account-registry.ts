import type { Plan } from '../domain/plans.js';
import type { Db } from './db.js';
import { stmt } from './rows.js';
import { CLOCK_OFFSET_KEY } from './tables.js';

/**
 * The SQL of the registry of accounts (src/accounts/registry.ts), kept in the sandbox's main
 * database: the default account's, which also holds the accounts table and their snapshots' rows.
 */

/** An account as the registry stores it (docs/accounts.md). */
export interface AccountRow {
  id: string;
  name: string;
  plan: Plan;
  trial_ends_at: string | null;
  trial_used: number;
  is_default: number;
  created_at: string;
}

/** Makes the default account's row unless there is one; then every account, the default first. */
export function accountRows(db: Db, defaultId: string): AccountRow[] {
  stmt(db, "INSERT OR IGNORE INTO accounts (id, name, plan, is_default, created_at) VALUES (?, 'Default', 'pro', 1, ?)").run(
    defaultId,
    new Date().toISOString(),
  );
  return stmt(db, 'SELECT * FROM accounts ORDER BY is_default DESC, id').all() as AccountRow[];
}

export function insertAccount(db: Db, row: AccountRow): void {
  stmt(db, 'INSERT INTO accounts (id, name, plan, trial_ends_at, trial_used, is_default, created_at) VALUES (?, ?, ?, ?, ?, 0, ?)').run(
    row.id,
    row.name,
    row.plan,
    row.trial_ends_at,
    row.trial_used,
    row.created_at,
  );
}

export function updateAccountPlan(db: Db, row: Pick<AccountRow, 'id' | 'plan' | 'trial_ends_at' | 'trial_used'>): void {
  stmt(db, 'UPDATE accounts SET plan = ?, trial_ends_at = ?, trial_used = ? WHERE id = ?').run(row.plan, row.trial_ends_at, row.trial_used, row.id);
}

export function deleteAccount(db: Db, id: string): void {
  stmt(db, 'DELETE FROM accounts WHERE id = ?').run(id);
}

/** The files of an account's snapshots, to remove with it. */
export const snapshotFilesOf = (db: Db, id: string) => stmt(db, 'SELECT file FROM account_snapshots WHERE account_id = ?').pluck().all(id) as string[];

/** A filled database as the image new accounts are copied from: without what each copy makes itself (cursor secret, sign-in state, clock). */
export function templateImage(db: Db): Buffer {
  stmt(db, 'DELETE FROM meta WHERE key IN (?, ?, ?)').run('cursor_secret', 'default_account_id', CLOCK_OFFSET_KEY);
  return db.serialize();
}
