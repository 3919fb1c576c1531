import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, fieldError } from '../errors.js';
import { makePrivateDir, preparePrivateDatabase } from '../private-files.js';
import { inTransaction } from '../services/transactions.js';
import { renewPaymentLinks } from '../services/payment-links.js';
import { signalOutbox } from '../services/outbox-signal.js';
import type { Db } from '../store/db.js';
import {
  copyDatabase,
  deleteSnapshotRow,
  findSnapshot,
  insertSnapshot,
  snapshotsOf,
  attachSnapshot,
  copySnapshotBack,
  detachSnapshot,
  type SnapshotRow,
} from '../store/snapshot-files.js';
import type { Account } from './account.js';

/**
 * Snapshots (docs/accounts.md#snapshots): an account's data, events, deliveries, idempotency keys and clock saved
 * under a name, and put back. API keys, OAuth apps and webhook endpoints are configuration and
 * stay as they are, as with reset. A snapshot is a copy of the account's database (VACUUM INTO);
 * a restore replaces the data tables from it in one transaction, so a request sees the account
 * all before or all after (the server runs one statement at a time: nothing can interleave).
 *
 * A restore gives the restored invoices new payment links (in their mail and events too): a link
 * is a secret that may have been handed out and used since the save, and a saved link must not pay
 * twice, so the snapshot's tokens are never live again. Everything else is as saved.
 */

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

let memoryDir: string | undefined;
/** In-memory sandboxes keep snapshots in a private temporary folder, removed at exit. */
function snapshotDir(account: Account): string {
  if (account.file) {
    const dir = `${account.file.replace(/\.db$/, '')}.snapshots`;
    makePrivateDir(dir);
    return dir;
  }
  if (!memoryDir) {
    memoryDir = mkdtempSync(join(tmpdir(), 'crm-snapshots-')); // 0700
    process.once('exit', () => rmSync(memoryDir!, { recursive: true, force: true }));
  }
  return memoryDir;
}

function checkName(name: string): void {
  if (!NAME.test(name))
    throw fieldError('name', 'invalid_name', 'A snapshot name is 1–64 letters, digits, dots, dashes or underscores, starting with a letter or digit.');
}

const find = (registry: Db, account: Account, name: string) => findSnapshot(registry, account.id, name);

const view = (row: SnapshotRow) => ({ name: row.name, account_id: row.account_id, created_at: row.created_at });

export function saveSnapshot(registry: Db, account: Account, name: string) {
  checkName(name);
  if (find(registry, account, name))
    throw new ApiError('conflict', `This account already has a snapshot named '${name}'; delete it first or pick another name.`);
  const dir = snapshotDir(account);
  const file = join(dir, `${account.id}-${name}.db`);
  rmSync(file, { force: true });
  preparePrivateDatabase(file); // an empty 0600 file, which VACUUM INTO fills (made by SQLite, it would be 0644)
  copyDatabase(account.db, file);
  const row: SnapshotRow = { account_id: account.id, name, file, created_at: new Date(account.ctx.clock()).toISOString() };
  insertSnapshot(registry, row);
  return view(row);
}

export function listSnapshots(registry: Db, account: Account) {
  return { data: snapshotsOf(registry, account.id).map(view) };
}

export function deleteSnapshot(registry: Db, account: Account, name: string) {
  const row = find(registry, account, name);
  if (!row) throw new ApiError('not_found', `This account has no snapshot named '${name}'.`);
  deleteSnapshotRow(registry, account.id, name);
  rmSync(row.file, { force: true });
  return { name, deleted: true as const };
}

export function restoreSnapshot(registry: Db, account: Account, name: string) {
  const row = find(registry, account, name);
  if (!row) throw new ApiError('not_found', `This account has no snapshot named '${name}'.`);
  const db = account.db;
  const started = performance.now();
  attachSnapshot(db, row.file);
  try {
    inTransaction(account.ctx, () => {
      copySnapshotBack(db);
      renewPaymentLinks(account.ctx);
      // Every record's search row is made again when the transaction commits (the insert triggers marked them).
    });
  } finally {
    detachSnapshot(db);
  }
  account.reloadClock();
  signalOutbox(db);
  return { name, account_id: account.id, restored: true as const, took_ms: Math.round((performance.now() - started) * 10) / 10 };
}
