import type { Db } from './db.js';
import { rawStatement, stmt } from './rows.js';

/**
 * Lookups every record table answers alike (clients, leads, deals, invoices): by id, by the
 * caller's external_id, by email. The table name is one of these, never input.
 */
export type RecordTable = 'leads' | 'clients' | 'deals' | 'invoices';

export const recordExists = (db: Db, table: RecordTable, id: string): boolean => stmt(db, `SELECT 1 FROM ${table} WHERE id = ?`).get(id) !== undefined;

/** The id of the record other than `exceptId` that holds `externalId`, if any. */
export const externalIdHolder = (db: Db, table: RecordTable, externalId: string, exceptId: string): string | undefined =>
  stmt(db, `SELECT id FROM ${table} WHERE external_id = ? AND id != ?`).pluck().get(externalId, exceptId) as string | undefined;

export const idByExternalId = (db: Db, table: RecordTable, externalId: string): string | undefined =>
  stmt(db, `SELECT id FROM ${table} WHERE external_id = ?`).pluck().get(externalId) as string | undefined;

/** At most two ids of records with this email (case-insensitive): two means the email names no single record. */
export const idsByEmail = (db: Db, table: RecordTable, email: string): string[] =>
  stmt(db, `SELECT id FROM ${table} WHERE email = ? COLLATE NOCASE LIMIT 2`).pluck().all(email) as string[];

/** Whether any stored record has one of these external ids: one query for a whole batch. */
export const anyExternalIdStored = (db: Db, table: RecordTable, externalIds: string[]): boolean =>
  anyStored(db, `SELECT 1 FROM ${table} WHERE external_id IN (SELECT value FROM json_each(?)) LIMIT 1`, externalIds);

/** Whether any stored record has one of these emails, by SQLite's NOCASE. */
export const anyEmailStored = (db: Db, table: RecordTable, emails: string[]): boolean =>
  anyStored(db, `SELECT 1 FROM ${table} WHERE email COLLATE NOCASE IN (SELECT value FROM json_each(?)) LIMIT 1`, emails);

const anyStored = (db: Db, sql: string, values: string[]): boolean => values.length > 0 && stmt(db, sql).get(JSON.stringify(values)) !== undefined;

/**
 * How many rows this connection has written so far: a write that changed nothing leaves it as it
 * was. A raw statement: the list cache asks it on every list request (list-json.ts).
 */
export const totalChanges = (db: Db): number => (rawStatement(db, 'SELECT total_changes()').statement.get() as [number])[0];
