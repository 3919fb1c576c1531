import type { BulkRequest } from '../schemas/bulk.js';
import { anyEmailStored, anyExternalIdStored, type RecordTable } from '../store/records.js';
import type { Ctx } from './context.js';
import type { Matchable } from './bulk.js';

/**
 * Whether every valid record of a batch is certain to be created: no record names an `id`, no two
 * records share a match key, and no stored record has any of their keys. That is the usual batch of
 * a first import, and the one bulk can write all at once (bulk.ts) instead of record by record,
 * because no record's outcome then depends on another's. Checked with one query per key, not
 * one per record.
 */
export function allRecordsNew<R extends Matchable>(ctx: Ctx, table: RecordTable, request: BulkRequest<R>): boolean {
  const records = request.records.flatMap((outcome) => (outcome.ok ? [outcome.value] : []));
  if (records.some((r) => r.id !== undefined)) return false;
  // external_id is unique in every mode, so it must be new in every mode.
  const externalIds = present(records.map((r) => r.external_id));
  if (hasDuplicates(externalIds) || anyExternalIdStored(ctx.db, table, externalIds)) {
    return false;
  }
  if (request.mode === 'upsert' && request.match_on === 'email') {
    const emails = present(records.map((r) => r.email));
    // toLowerCase folds more than SQLite's NOCASE (ASCII only): it can only send a batch the slow way.
    if (hasDuplicates(emails.map((e) => e.toLowerCase()))) return false;
    if (anyEmailStored(ctx.db, table, emails)) return false;
  }
  return true;
}

const present = (values: (string | null | undefined)[]): string[] => values.filter((v): v is string => v !== null && v !== undefined);
const hasDuplicates = (values: string[]): boolean => new Set(values).size !== values.length;
