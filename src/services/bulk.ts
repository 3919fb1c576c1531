import { ApiError, fieldError, notFound } from '../errors.js';
import { issuesError, type BulkError, type BulkRequest, type BulkResponse, type BulkResult, type BulkSummary, type RecordOutcome } from '../schemas/bulk.js';
import { checkpointForBulkWrites } from '../store/checkpoints.js';
import { idByExternalId, idsByEmail, recordExists, totalChanges } from '../store/records.js';
import { allRecordsNew } from './bulk-new-records.js';
import type { Ctx } from './context.js';
import { inOneSavepoint, inTransaction } from './transactions.js';

/**
 * Bulk upsert (docs/api.md#bulk-api) over the resource services, so each record is created or updated exactly
 * as a single POST or PATCH would be, with the same rules and events. The whole batch is one
 * transaction (one commit instead of a thousand). A record that fails must leave nothing behind
 * while the others commit, which takes a savepoint per record; since most batches have no
 * failing record, the batch first runs in one savepoint without them, and only a batch in which a
 * record fails is rolled back and run again record by record, each in its own savepoint.
 * A batch of records that are all new (the usual first import) is faster still for a target that
 * can build records without writing them: each is built and checked on its own, and the ones that
 * pass are written together with multi-row INSERTs.
 *
 * Records are applied in order, so duplicates inside one batch are not special: a later record with
 * the same match key finds the one an earlier record created and updates it (or is unchanged).
 */
export interface BulkTarget<R> {
  table: 'leads' | 'clients' | 'deals';
  noun: string;
  /** Each must be all-or-nothing (its own transaction), as the service functions are. */
  create(ctx: Ctx, record: R): { id: string };
  update(ctx: Ctx, id: string, record: R): void;
  /** The record as the API shows it, for the changes a dry run reports. */
  read(ctx: Ctx, id: string): object;
  /** Optional: the create split in two, for batches of new records (the create must equal build + insert). */
  createMany?: {
    /** Checks the rules and makes the record, writing nothing; throws ApiError like create. */
    build(ctx: Ctx, record: R): { id: string };
    /** Writes what build made, with the events create would emit. */
    insert(ctx: Ctx, built: { id: string }[]): void;
  };
}

export type Matchable = { id?: string | undefined; external_id?: string | null | undefined; email?: string | null | undefined };

export function runBulk<R extends Matchable>(ctx: Ctx, target: BulkTarget<Omit<R, 'id'>>, request: BulkRequest<R>): BulkResponse {
  if (request.dry_run) return planBulk(ctx, target, request);
  checkpointForBulkWrites(ctx.db); // an import's batches: large checkpoint steps while they come
  return writeBulk(ctx, target, request);
}

function writeBulk<R extends Matchable>(ctx: Ctx, target: BulkTarget<Omit<R, 'id'>>, request: BulkRequest<R>, plan?: Plan): BulkResponse {
  return inTransaction(ctx, () => {
    if (target.createMany && allRecordsNew(ctx, target.table, request)) return createAll(ctx, target.createMany, request);
    try {
      return inOneSavepoint(ctx, () => applyAll(ctx, target, request, 'throw', plan));
    } catch (error) {
      if (!(error instanceof RecordFailed)) throw error;
      return applyAll(ctx, target, request, 'report', plan);
    }
  });
}

/** A dry run records, for each updated record, the fields it changes. */
type Plan = Map<number, Record<string, { from: unknown; to: unknown }>>;
class RollBack extends Error {}

/**
 * `dry_run` (docs/sync.md#plan---plan-and-bulk-dry_run): the batch runs exactly as it would, through the same services and checks,
 * inside a transaction that is then rolled back, so nothing is written and no event survives (the
 * outbox nudge finds nothing new). Created records get no id: the real import makes another.
 */
function planBulk<R extends Matchable>(ctx: Ctx, target: BulkTarget<Omit<R, 'id'>>, request: BulkRequest<R>): BulkResponse {
  const plan: Plan = new Map();
  let planned: BulkResponse | undefined;
  try {
    inTransaction(ctx, () => {
      // The all-new fast path reports the same statuses; the record-by-record path gives changes.
      planned = writeBulk(ctx, { ...target, createMany: undefined }, request, plan);
      throw new RollBack();
    });
  } catch (error) {
    if (!(error instanceof RollBack)) throw error;
  }
  const results = planned!.results.map(({ id, ...result }): BulkResult => {
    if (result.status === 'created') return result;
    const changes = plan.get(result.index);
    return { ...result, ...(id ? { id } : {}), ...(result.status === 'updated' && changes ? { changes } : {}) };
  });
  return { results, summary: planned!.summary };
}

/** Field-by-field differences of two API records, nested objects dotted (address.city), arrays whole. */
function changesOf(before: object, after: object): Record<string, { from: unknown; to: unknown }> {
  const flat = (value: object, prefix = '', out: Record<string, unknown> = {}) => {
    for (const [key, v] of Object.entries(value)) {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) flat(v, `${prefix}${key}.`, out);
      else out[`${prefix}${key}`] = v;
    }
    return out;
  };
  const [was, is] = [flat(before), flat(after)];
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of new Set([...Object.keys(was), ...Object.keys(is)])) {
    if (key === 'updated_at') continue;
    const [from, to] = [was[key] ?? null, is[key] ?? null];
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to };
  }
  return changes;
}

/** Thrown out of the one-savepoint pass: a record failed after it may have written part of itself. */
class RecordFailed extends Error {}

function applyAll<R extends Matchable>(
  ctx: Ctx,
  target: BulkTarget<Omit<R, 'id'>>,
  request: BulkRequest<R>,
  onFailure: 'throw' | 'report',
  plan?: Plan,
): BulkResponse {
  const results = request.records.map((outcome, index) => applyOne(ctx, target, request, outcome, index, onFailure, plan));
  return { results, summary: summarize(results) };
}

function summarize(results: BulkResult[]): BulkSummary {
  const summary: BulkSummary = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  for (const result of results) summary[result.status]++;
  return summary;
}

function createAll<R extends Matchable>(ctx: Ctx, createMany: NonNullable<BulkTarget<Omit<R, 'id'>>['createMany']>, request: BulkRequest<R>): BulkResponse {
  const built: { id: string }[] = [];
  const results = request.records.map((outcome, index): BulkResult => {
    if (!outcome.ok) return { index, status: 'failed', error: issuesError(outcome.issues) };
    try {
      // allRecordsNew: no record has an id, so each is a create's input as it is (no copy a record).
      const record = createMany.build(ctx, outcome.value as Omit<R, 'id'>);
      built.push(record);
      return { index, status: 'created', id: record.id };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { index, status: 'failed', error: apiErrorOf(error) };
    }
  });
  createMany.insert(ctx, built);
  return { results, summary: summarize(results) };
}

function applyOne<R extends Matchable>(
  ctx: Ctx,
  target: BulkTarget<Omit<R, 'id'>>,
  request: BulkRequest<R>,
  outcome: RecordOutcome<R>,
  index: number,
  onFailure: 'throw' | 'report',
  plan?: Plan,
): BulkResult {
  if (!outcome.ok) return { index, status: 'failed', error: issuesError(outcome.issues) };
  const { id, ...fields } = outcome.value;
  try {
    const existing = findExisting(ctx, target, request, id, fields);
    if (existing === undefined) return { index, status: 'created', id: target.create(ctx, fields).id };
    // The services return before writing when nothing changes; SQLite counts every row written,
    // so "no row written" is exactly the contract's "unchanged" (no write, no event).
    const before = plan ? target.read(ctx, existing) : undefined;
    const writesBefore = totalChanges(ctx.db);
    target.update(ctx, existing, fields);
    const status = totalChanges(ctx.db) === writesBefore ? 'unchanged' : 'updated';
    if (plan && before && status === 'updated') plan.set(index, changesOf(before, target.read(ctx, existing)));
    return { index, status, id: existing };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error; // a bug fails the whole batch (500), never half of it silently
    if (onFailure === 'throw') throw new RecordFailed();
    return { index, status: 'failed', error: apiErrorOf(error) };
  }
}

/** The record to update: named by id, else found by the match key; undefined means create. */
function findExisting<R extends Matchable>(
  ctx: Ctx,
  target: BulkTarget<unknown>,
  request: BulkRequest<R>,
  id: string | undefined,
  fields: Omit<R, 'id'>,
): string | undefined {
  if (id !== undefined) {
    if (request.mode === 'create') throw fieldError('id', 'not_allowed', 'id names a record to update; it is accepted in upsert mode only.');
    if (!recordExists(ctx.db, target.table, id)) throw notFound(target.noun, id);
    return id;
  }
  if (request.mode === 'create') return undefined;
  const key = request.match_on === 'email' ? fields.email : fields.external_id;
  if (key === undefined || key === null) return undefined; // nothing to match on: a new record
  if (request.match_on === 'external_id') {
    return idByExternalId(ctx.db, target.table, key);
  }
  const ids = idsByEmail(ctx.db, target.table, key);
  if (ids.length > 1) {
    throw new ApiError(
      'conflict',
      `More than one ${target.noun} has the email '${key}', so the record matches none of them; match on external_id or give an id.`,
    );
  }
  return ids[0];
}

function apiErrorOf(error: ApiError): BulkError {
  const path = error.errors?.[0]?.path;
  return { code: error.code, message: error.message, ...(path ? { path } : {}) };
}
