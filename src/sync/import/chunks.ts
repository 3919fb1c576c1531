import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { issuesError, type BulkMode } from '../../schemas/bulk.js';
import type { ColumnMap } from './mapping.js';
import type { SourceRow } from '../csv/source.js';
import { rowToRecord } from './to-record.js';
import { inNameOrder } from '../../json-tree.js';

/**
 * The file cut into chunks of --batch-size consecutive rows. Cutting by rows (not by valid
 * records) makes the chunks, and so their Idempotency-Keys, the same on every run over the same
 * file and options, which is what lets a rerun replay batches instead of writing them twice.
 */
export interface Chunk {
  index: number;
  firstLine: number;
  lastLine: number;
  rows: SourceRow[];
}

export async function* chunksOf(runs: AsyncIterable<SourceRow[]>, size: number): AsyncGenerator<Chunk> {
  let index = 0;
  let current: SourceRow[] = [];
  const cut = (): Chunk => {
    const chunk = { index: index++, firstLine: current[0]!.line, lastLine: current[current.length - 1]!.line, rows: current };
    current = [];
    return chunk;
  };
  for await (const run of runs) {
    for (const row of run) {
      current.push(row);
      if (current.length === size) yield cut();
    }
  }
  if (current.length) yield cut();
}

export interface RowFailure {
  row: SourceRow;
  code: string;
  message: string;
}

/** A chunk ready to send: the request body of its valid rows and its key, and the rows refused locally. */
export interface Batch extends Chunk {
  /** The rows whose records are in the body, in the body's order (results come back by index). */
  sent: SourceRow[];
  invalid: RowFailure[];
  /** Absent when no row of the chunk is valid: nothing to send. */
  request?: { body: Buffer; key: string };
}

export interface BatchSpec {
  resource: string;
  mode: BulkMode;
  matchOn: 'external_id' | 'email';
  map: ColumnMap;
  /** The same schema the server validates each record with. */
  schema: z.ZodType;
  /** A plan: the server checks each batch and writes nothing (docs/sync.md#plan---plan-and-bulk-dry_run). */
  dryRun?: boolean;
}

/**
 * Validates each row with the server's own record schema, so a row the server would refuse for
 * its shape is never sent, and builds the body once: its UTF-8 bytes are hashed for the
 * Idempotency-Key and sent as they are (encoded once, not once to hash and once to send).
 * A dry run (withRequest false) only validates.
 */
export function toBatch(chunk: Chunk, spec: BatchSpec, withRequest = true): Batch {
  const sent: SourceRow[] = [];
  const invalid: RowFailure[] = [];
  const records: unknown[] = [];
  for (const row of chunk.rows) {
    if (row.error) {
      invalid.push({ row, ...row.error });
      continue;
    }
    const converted = rowToRecord(spec.map, row.values);
    if (!converted.ok) {
      invalid.push({ row, code: converted.code, message: converted.message });
      continue;
    }
    // validate() answers yes or no without building the parsed copy nothing here reads; only a
    // refused record is parsed again, for its issues.
    const parsed = spec.schema.validate(converted.record) ? undefined : spec.schema.safeParse(converted.record);
    if (parsed && !parsed.success) {
      const error = issuesError(parsed.error.issues);
      invalid.push({ row, code: error.code, message: error.message });
      continue;
    }
    sent.push(row);
    // As read, not as parsed (the server applies its own defaults), members in name order (json-tree.ts).
    records.push(inNameOrder(converted.record));
  }
  if (records.length === 0 || !withRequest) return { ...chunk, sent, invalid };
  const body = Buffer.from(JSON.stringify({ mode: spec.mode, match_on: spec.matchOn, records, ...(spec.dryRun ? { dry_run: true } : {}) }));
  return { ...chunk, sent, invalid, request: { body, key: batchKey(spec.resource, body) } };
}

/** SHA-256 of what the batch does (resource, mode, match_on, records): the same rows, the same key. */
function batchKey(resource: string, body: Buffer): string {
  return `crm-sync-${createHash('sha256').update(`${resource}\n`).update(body).digest('hex')}`;
}
