import { existsSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { ClientBulkRecord, LeadBulkRecord, type BulkMode, type BulkResponse, type BulkSummary } from '../../schemas/bulk.js';
import { compiledSchema } from '../../schemas/compiled.js';
import { chunksOf, toBatch, type Batch, type Chunk, type RowFailure } from './chunks.js';
import type { SyncResource } from '../columns.js';
import { SyncUsageError } from '../errors.js';
import { Journal, type JournalHeader, type ResumePoint } from './journal.js';
import { mapHeader, needsDefinitions, parseMapOption, type ColumnMap, type UnknownColumn } from './mapping.js';
import { NO_DRY_RUN, PlanFile, PlanRefused, isDryRunRefusal } from './plan.js';
import { ResultsFolder } from './results.js';
import { classifyFailure } from '../send-failure.js';
import { openJsonl, isJsonl } from './jsonl-source.js';
import { applyPreset, type Preset } from './presets.js';
import { openCsv, type CsvSource, type Encoding } from '../csv/source.js';
import { fieldObjectOf, type FieldsApi } from '../fields/definitions.js';
import { FieldIndex } from '../fields/field-index.js';
import { newFields, summariseColumns, unknownColumnsError, type NewField, type UnknownColumnsPolicy } from './unknown-columns.js';

/**
 * `crm sync import`: CSV stream → map and validate rows → batches → POST /v1/{resource}/bulk, with
 * --concurrency batches in flight and the file read only as fast as batches finish (flat memory).
 * Every finished batch lands in the results files and then in the journal. A batch the server
 * cannot take (down past the client's retries) stops the import: every row not finished by then
 * goes to unprocessed.csv, and a rerun with --resume sends exactly those. So does a row the file
 * cannot be read past (a field longer than --max-field-size, a quote never closed): see
 * docs/sync.md.
 */
export interface ImportOptions {
  resource: SyncResource;
  file: string;
  mode: BulkMode;
  matchOn: 'external_id' | 'email';
  map?: string | undefined;
  batchSize: number;
  concurrency: number;
  dryRun: boolean;
  /** Read another product's export: its columns and values mapped onto ours (docs/sync.md#presets---from-hubspotsalesforcepipedrive). */
  from?: Preset | undefined;
  /** Send every batch as a server dry run and write plan.csv (docs/sync.md#plan---plan-and-bulk-dry_run). */
  plan?: boolean | undefined;
  resume: boolean;
  resultsDir?: string | undefined;
  delimiter?: string | undefined;
  encoding?: Encoding | undefined;
  /** The most characters a CSV field may have; a row, 4 times that (csv/limits.ts). */
  maxFieldSize?: number | undefined;
  /**
   * --raw: cells as they are, both ways: the file's `'=…` is not read back as `=…`, and the results
   * files are written without the `'` before what a spreadsheet would run (formula-cells.ts).
   */
  raw?: boolean | undefined;
  /** --bom: the results files (and plan.csv) start with a UTF-8 byte-order mark, for Excel. */
  bom?: boolean | undefined;
  /** Aborted (Ctrl+C): batches in flight finish, the rest goes to unprocessed.csv for --resume. */
  signal?: AbortSignal | undefined;
  /**
   * The server's custom field definitions (docs/sync.md#custom-fields): columns fill them, typed.
   * Absent (a dry run: no server) or a server without them: custom.<name> columns as before.
   */
  fields?: FieldsApi | undefined;
  /** Columns that fill no field: stop before writing (the default), define a field each (--create-fields), or leave them out (--ignore-unknown). */
  unknownColumns?: UnknownColumnsPolicy | undefined;
}

export interface ImportReport {
  /** For the whole file, including batches finished by earlier runs when resuming. */
  summary: BulkSummary;
  /** Data rows read from the file. */
  rows: number;
  unprocessed: number;
  resultsDir: string;
  durationMs: number;
  /** Why the import stopped before the end of the file. */
  stopped?: string;
  /**
   * It stopped at a row of the file it could not read (`stopped` says which and why): nothing after
   * it was read. `resumable`: the row was only too long, and --resume with a higher cap goes on.
   */
  unreadable?: { resumable: boolean };
  dryRun: boolean;
  plan?: string;
  /** --from: the file's columns the preset does not know, kept as custom.<column> (a server without field definitions). */
  keptAsCustom?: string[];
  /** --create-fields: the fields defined for unknown columns (with --plan: that would be). */
  fieldsCreated?: NewField[];
  fieldsToCreate?: NewField[];
  /** --ignore-unknown: the columns left out. */
  ignoredColumns?: string[];
  /** Batches sent in this run. */
  batches: number;
  /**
   * Batches the server answered from its idempotency store (`Idempotent-Replayed: true`): the same
   * content was sent before (a rerun within 24 h), nothing was written again, and their counts are
   * those of that first time. `lines`: their line ranges, merged.
   */
  replayed?: { batches: number; rows: number; lines: [first: number, last: number][] };
}

export interface ImportProgress {
  rows: number;
  bytes: number;
  size: number;
}

/** Sends one bulk request; the CLI passes the typed client (retries, Retry-After, backoff). `replayed`: the server's Idempotent-Replayed. */
export type SendBatch = (path: string, body: Buffer, idempotencyKey: string) => Promise<{ body: BulkResponse; replayed: boolean }>;

const SCHEMAS: Record<SyncResource, z.ZodLazy<z.ZodType>> = { leads: LeadBulkRecord, clients: ClientBulkRecord };

/**
 * The server's record schema, compiled by zod into one generated function (schemas/compiled.ts):
 * ~0.8 µs a lead instead of ~4.6 µs for the interpreted schema. Same schema, same answers: a
 * record the compiled code rejects is parsed again by the interpreted schema, for the same issues
 * and messages the server gives. Compiling takes ~15 ms, so only when importing.
 */
const recordSchema = (resource: SyncResource): z.ZodType => compiledSchema(SCHEMAS[resource]);

/** --results default: beside the file, one folder per file, so that --resume finds its journal. */
const defaultResultsDir = (file: string, dryRun: boolean, plan = false): string => `${file}.${plan ? 'plan' : dryRun ? 'dry-run' : 'results'}`;

export async function importCsv(options: ImportOptions, send: SendBatch, onProgress: (p: ImportProgress) => void = () => {}): Promise<ImportReport> {
  const started = Date.now();
  const mapOption = parseMapOption(options.map);
  const { opened, preset, source } = await openSource(options, mapOption);
  const definitions =
    options.fields && needsDefinitions(options.resource, source.header, mapOption) ? await options.fields.list(fieldObjectOf(options.resource)) : undefined;
  const fields = definitions ? new FieldIndex(definitions) : undefined;
  const { targets: map, unknown } = mapHeader(options.resource, source.header, mapOption, options.mode, fields, opened.header);
  const unknownOutcome = unknown.length ? await handleUnknown(options, mapOption, map, unknown, fields!) : {};
  const dir = options.resultsDir ?? defaultResultsDir(options.file, options.dryRun, options.plan);
  const dirExisted = existsSync(dir);
  const header = journalHeader(options, opened.header, source.delimiter, source.encoding);

  let journal: Journal | undefined;
  let point: ResumePoint | undefined;
  if (options.resume) ({ journal, point } = Journal.resume(dir, header)); // before the results files are touched
  const results = new ResultsFolder(dir, source.header, point?.sizes, options.raw === true, options.bom === true);
  // A plan changes nothing, so there is nothing to resume: no journal.
  if (!options.resume && !options.dryRun && !options.plan) journal = Journal.create(dir, header);
  const plan = options.plan ? new PlanFile(dir, options.raw === true, options.bom === true) : undefined;

  const run = new ImportRun(options, send, results, journal, () => onProgress({ rows: run.finished, bytes: source.bytesRead(), size: source.size }), plan);
  const spec = {
    resource: options.resource,
    mode: options.mode,
    matchOn: options.matchOn,
    map,
    schema: recordSchema(options.resource),
    dryRun: options.plan === true,
  };
  const inFlight = new Set<Promise<void>>();
  try {
    for await (const chunk of chunksOf(source.rows, options.batchSize)) {
      run.rows += chunk.rows.length;
      if (options.signal?.aborted) run.stopped ??= 'interrupted (Ctrl+C)';
      // Only the last chunk, cut short by a row that cannot be read, sees this: it is not sent,
      // since the fixed file would give that batch other rows, and so another key (a rerun would
      // write its rows twice in --mode create) and another line range (--resume would refuse).
      // A dry run sends nothing, so it checks those rows too.
      if (!options.dryRun) run.noteFailure(source.failure?.());
      if (run.stopped) run.leaveUnprocessed(chunk);
      else if (point?.done.has(chunk.index)) run.skipDone(chunk, point);
      else if (options.dryRun) run.validateOnly(toBatch(chunk, spec, false));
      else {
        const task = run.send(toBatch(chunk, spec)).finally(() => inFlight.delete(task));
        inFlight.add(task);
        if (inFlight.size >= options.concurrency) await Promise.race(inFlight);
      }
    }
    run.noteFailure(source.failure?.()); // when the rows before it filled their batches
  } finally {
    await Promise.all(inFlight); // send() never rejects: every outcome is written down
    results.close();
    journal?.close();
    if (run.noDryRun) plan?.discard();
    else plan?.close();
  }
  if (run.noDryRun) {
    // Nothing was planned, so nothing is left behind that could pass for a plan.
    if (run.serverWrote) throw new PlanRefused(run.noDryRun);
    if (dirExisted) for (const name of ['succeeded.csv', 'failed.csv', 'unprocessed.csv']) rmSync(results.path(name), { force: true });
    else rmSync(dir, { recursive: true, force: true });
    throw new PlanRefused(run.noDryRun);
  }
  const { summary, rows, unprocessed, stopped, replayed, batches, unreadable } = run;
  return {
    summary,
    rows,
    unprocessed,
    resultsDir: dir,
    durationMs: Date.now() - started,
    dryRun: options.dryRun,
    batches,
    ...(replayed.batches ? { replayed: { ...replayed, lines: mergeRanges(replayed.lines) } } : {}),
    ...(stopped ? { stopped } : {}),
    ...(unreadable ? { unreadable } : {}),
    ...(plan ? { plan: plan.path } : {}),
    ...(preset?.custom.length && !fields ? { keptAsCustom: preset.custom } : {}),
    ...unknownOutcome,
  };
}

/** The file as rows of our columns (a preset's renamed and its values mapped); opened once per pass. */
async function openSource(options: ImportOptions, mapOption: Map<string, string>) {
  const opened = isJsonl(options.file)
    ? await openJsonl(options.file, options.resource)
    : await openCsv(options.file, { encoding: options.encoding, delimiter: options.delimiter, raw: options.raw, maxFieldSize: options.maxFieldSize });
  const preset = options.from ? applyPreset(options.from, options.resource, opened, mapOption.keys()) : undefined;
  const source: CsvSource = preset?.source ?? opened;
  return { opened, preset, source };
}

/**
 * Columns that fill no field, before anything is written: a usage error that lists them, or
 * left out (--ignore-unknown), or a field defined for each (--create-fields; a plan only says
 * which, and checks their cells without sending them). Their targets in `map` are set here.
 */
async function handleUnknown(
  options: ImportOptions,
  mapOption: Map<string, string>,
  map: ColumnMap,
  unknown: UnknownColumn[],
  fields: FieldIndex,
): Promise<Pick<ImportReport, 'fieldsCreated' | 'fieldsToCreate' | 'ignoredColumns'>> {
  const policy = options.unknownColumns ?? 'stop';
  if (policy === 'ignore') return { ignoredColumns: unknown.map((c) => c.column) };
  if (policy === 'stop') throw unknownColumnsError(options.resource, unknown, fields, options.from);
  // The first pass: the file read once more, only for these columns' summaries (flat memory).
  const { source } = await openSource(options, mapOption);
  const summaries = await summariseColumns(
    source,
    unknown.map((c) => c.index),
  );
  const planned = newFields(fieldObjectOf(options.resource), unknown, summaries, fields);
  const made: NewField[] = [];
  for (const [i, field] of planned.entries()) {
    const index = unknown[i]!.index;
    if (options.plan) {
      map[index] = { kind: 'custom', key: field.key, field, column: field.column, checkOnly: true };
      continue;
    }
    const { column, key, label, type, options: choices } = field;
    let created;
    try {
      created = await options.fields!.create({ object: fieldObjectOf(options.resource), key, label, type, ...(choices ? { options: choices } : {}) });
    } catch (error) {
      const before = made.length ? ` The field(s) defined before it stay: ${made.map((f) => f.key).join(', ')}.` : '';
      throw new Error(`Defining the field "${key}" (${type}) for the column "${column}" failed: ${(error as Error).message}. No record was written.${before}`);
    }
    made.push({ ...created, column });
    map[index] = { kind: 'custom', key: created.key, field: created, column };
  }
  return options.plan ? { fieldsToCreate: planned } : { fieldsCreated: made };
}

/** Adjacent line ranges as one: batches 2-501 and 502-1001 are lines 2-1001. */
function mergeRanges(ranges: [number, number][]): [number, number][] {
  const merged: [number, number][] = [];
  for (const [first, last] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const previous = merged.at(-1);
    if (previous && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else merged.push([first, last]);
  }
  return merged;
}

/** What a journal is valid for: the same file (by size and time), options and columns cut the same chunks. */
function journalHeader(options: ImportOptions, columns: string[], delimiter: string, encoding: string): JournalHeader {
  const stat = statSync(options.file);
  return {
    file: resolve(options.file),
    size: stat.size,
    mtime_ms: Math.trunc(stat.mtimeMs),
    resource: options.resource,
    mode: options.mode,
    match_on: options.matchOn,
    batch_size: options.batchSize,
    map: options.map ?? '',
    delimiter,
    encoding,
    raw: options.raw === true, // the same file read another way makes other records, and other keys
    columns,
  };
}

/** The state of one import run and what it does with each chunk. */
class ImportRun {
  summary: BulkSummary = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  rows = 0;
  finished = 0;
  unprocessed = 0;
  stopped: string | undefined;
  unreadable: { resumable: boolean } | undefined;
  /** Set when a plan is asked of a server that cannot make one. */
  noDryRun: string | undefined;
  serverWrote = false;
  batches = 0;
  replayed = { batches: 0, rows: 0, lines: [] as [number, number][] };

  constructor(
    private readonly options: ImportOptions,
    private readonly post: SendBatch,
    private readonly results: ResultsFolder,
    private readonly journal: Journal | undefined,
    private readonly progress: () => void,
    private readonly plan?: PlanFile,
  ) {}

  /** The file could not be read past a row: stop there. */
  noteFailure(failure: { message: string; resumable: boolean } | undefined): void {
    if (!failure || this.stopped) return; // stopped already (the server, Ctrl+C): that is the reason
    this.stopped = failure.message;
    this.unreadable = { resumable: failure.resumable };
  }

  async send(batch: Batch): Promise<void> {
    if (!batch.request) return this.finish(batch, []);
    if (this.noDryRun) return; // the whole plan is off
    let response: BulkResponse;
    try {
      this.batches++;
      const answer = await this.post(`/v1/${this.options.resource}/bulk`, batch.request.body, batch.request.key);
      response = answer.body;
      if (answer.replayed) {
        this.replayed.batches++;
        this.replayed.rows += batch.sent.length;
        this.replayed.lines.push([batch.firstLine, batch.lastLine]);
      }
      if (response.results.length !== batch.sent.length)
        throw new Error(`The server answered ${response.results.length} results for ${batch.sent.length} records.`);
      // A dry run gives a created record no id; an id means the server ignored dry_run and wrote.
      if (this.plan && response.results.some((r) => r.status === 'created' && r.id)) {
        this.noDryRun =
          'This server ignored "dry_run" and WROTE the first batch it was sent (created records have ids): it does not support plans (bulk dry runs). Stopped; check succeeded.csv.';
        this.serverWrote = true; // its results files stay: they are the record of what was written
      }
    } catch (error) {
      if (this.plan && isDryRunRefusal(error)) {
        this.noDryRun = NO_DRY_RUN;
        return;
      }
      const failure = classifyFailure(error);
      if (failure.stops) {
        this.stopped ??= failure.message;
        return this.leaveUnprocessed(batch);
      }
      // The server refused the request as a whole (e.g. 413): each of its rows failed with that reason.
      return this.finish(
        batch,
        batch.sent.map((row) => ({ row, code: failure.code, message: failure.message })),
      );
    }
    const failed: RowFailure[] = [];
    const succeeded: [number, string, string][] = [];
    for (const result of response.results) {
      const row = batch.sent[result.index]!;
      this.plan?.add(row.line, result);
      if (result.status === 'failed') failed.push({ row, code: result.error?.code ?? 'failed', message: result.error?.message ?? '' });
      else {
        succeeded.push([row.line, result.id ?? '', result.status]);
        this.summary[result.status]++;
      }
    }
    this.finish(batch, failed, succeeded);
  }

  validateOnly(batch: Batch): void {
    this.results.failed(batch.invalid);
    this.summary.failed += batch.invalid.length;
    this.finished += batch.rows.length;
    this.progress();
  }

  /** A chunk an earlier run finished: its results are already in the files. */
  skipDone(chunk: Chunk, point: ResumePoint): void {
    const entry = point.done.get(chunk.index)!;
    if (entry.first_line !== chunk.firstLine || entry.last_line !== chunk.lastLine) {
      throw new SyncUsageError(
        `The file no longer matches the journal (batch ${chunk.index} was lines ${entry.first_line}-${entry.last_line}). Rerun without --resume.`,
      );
    }
    for (const status of ['created', 'updated', 'unchanged', 'failed'] as const) this.summary[status] += entry.summary[status];
    this.finished += chunk.rows.length;
  }

  leaveUnprocessed(chunk: Chunk): void {
    this.results.unprocessed(chunk.rows);
    this.unprocessed += chunk.rows.length;
  }

  private finish(batch: Batch, serverFailed: RowFailure[], succeeded: [number, string, string][] = []): void {
    const failed = [...batch.invalid, ...serverFailed];
    this.summary.failed += failed.length;
    this.results.succeeded(succeeded);
    this.results.failed(failed);
    const counts = { created: 0, updated: 0, unchanged: 0, failed: failed.length };
    for (const [, , status] of succeeded) counts[status as 'created' | 'updated' | 'unchanged']++;
    const sizes = this.results.sizes();
    this.journal?.record({
      chunk: batch.index,
      first_line: batch.firstLine,
      last_line: batch.lastLine,
      key: batch.request?.key ?? null,
      summary: counts,
      succeeded_bytes: sizes.succeeded,
      failed_bytes: sizes.failed,
    });
    this.finished += batch.rows.length;
    this.progress();
  }
}
