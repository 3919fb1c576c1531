import { join } from 'node:path';
import type { CrmClient } from '../../client/client.js';
import { CrmApiError } from '../../client/errors.js';
import type { Invoice } from '../../schemas/invoice.js';
import { CopyStopped, inPool, seg, writeBulkPage, type Outcome, type PageWriter } from './bulk.js';
import { copyInvoice } from './invoices.js';
import { CopyJournal, ResourceResults, writeState, type PageEntry } from './journal.js';
import { MissingReference, invoiceBody, type SourceRecord } from './records.js';
import { selectSubset, type SubsetSpec } from './subset.js';
import { TargetIndex } from './target.js';
import { PAGE_SIZE } from '../export/export.js';
import { COPY_RESOURCES, type CopyResource, type Masker } from '../mask/rules.js';
import { classifyFailure } from '../send-failure.js';
import { copyFieldDefinitions } from './fields.js';

/**
 * `crm sync copy`: one server's records into another, one way — source pages → id map → mask →
 * batches → target — clients (with their contact persons) first, then leads, deals and invoices,
 * so that every reference lands. Records are matched in the target by external_id = the source
 * record's id: a rerun updates in place and reports `unchanged` when nothing moved. Reads with
 * export's pages (limit 1000, keyset cursors, the next page fetched while one is written); writes
 * with import's idempotent bulk batches (bulk.ts); invoices one by one (invoices.ts).
 */
export interface CopyOptions {
  from: string;
  to: string;
  resources: readonly CopyResource[];
  subset?: SubsetSpec | undefined;
  /** RFC 3339: only records updated after it, oldest change first. */
  since?: string | undefined;
  masker: Masker;
  plan: boolean;
  resume: boolean;
  prune: boolean;
  resultsDir: string;
  batchSize: number;
  concurrency: number;
  targetIsSandbox: boolean;
  /** What must match for --resume to continue a journal (the options that change what is sent). */
  fingerprint: string;
  signal?: AbortSignal | undefined;
}

type ResourceSummary = { created: number; updated: number; unchanged: number; failed: number; deleted_in_source: number; pruned: number };
export interface CopyReport {
  resources: Partial<Record<CopyResource, ResourceSummary>>;
  resultsDir: string;
  durationMs: number;
  plan: boolean;
  stopped?: string;
  /** Custom fields defined in the target (`object.key`), and those given the source's options (a plan: that would be). */
  fields?: { created: string[]; updated: string[] };
}

const zero = (): ResourceSummary => ({ created: 0, updated: 0, unchanged: 0, failed: 0, deleted_in_source: 0, pruned: 0 });

export async function copyData(
  options: CopyOptions,
  source: CrmClient,
  target: CrmClient,
  onProgress: (resource: CopyResource, rows: number) => void = () => {},
): Promise<CopyReport> {
  const started = new Date();
  // The definitions first, before any file or record is written (a type conflict stops here): the
  // target takes only custom fields it defines, and masking goes by their types. For the resources
  // asked for and those their records point at (a subset brings them).
  const pointed = options.resources.flatMap((r): CopyResource[] => (r === 'invoices' ? ['clients', 'deals'] : r === 'clients' ? [] : ['clients']));
  const fields = await copyFieldDefinitions(source, target, [...options.resources, ...pointed], options.plan);
  for (const [resource, types] of fields.types) options.masker.useFieldTypes(resource, types);
  const header = { from: options.from, to: options.to, options: options.fingerprint, since: options.since };
  // Before anything is read: what changes from now on is after the watermark.
  const watermark = options.resume || options.plan ? undefined : await latestChange(source, options.since);
  const journal = options.plan
    ? undefined
    : options.resume
      ? CopyJournal.resume(options.resultsDir, header)
      : CopyJournal.create(options.resultsDir, { ...header, watermark });
  if (journal && options.resume) options = { ...options, since: journal.header.since }; // the run's own --since (30d is then)
  const report: CopyReport = { resources: {}, resultsDir: options.resultsDir, durationMs: 0, plan: options.plan };
  if (fields.created.length || fields.updated.length) report.fields = { created: fields.created, updated: fields.updated };
  try {
    const chosen = options.subset ? await selectSubset(source, options.resources, options.subset, options.since) : undefined;
    const resources = COPY_RESOURCES.filter((r) => options.resources.includes(r) || (chosen?.get(r)?.size ?? 0) > 0);
    const pointedAt = new Set<CopyResource>(
      resources.flatMap((r) => (r === 'invoices' ? ['clients', 'deals'] : r === 'clients' ? [] : ['clients'])) as CopyResource[],
    );
    const index = await TargetIndex.read(
      target,
      COPY_RESOURCES.filter((r) => resources.includes(r) || pointedAt.has(r)),
    );
    const writer: PageWriter = {
      target,
      runId: journal?.header.run_id ?? 'plan',
      plan: options.plan,
      batchSize: options.batchSize,
      concurrency: options.concurrency,
      masker: options.masker,
      index,
      ...(options.plan ? { plannedFields: new Set(fields.created) } : {}),
    };
    const seen = new Map<CopyResource, Set<string> | undefined>();
    for (const resource of resources) {
      const summary = (report.resources[resource] = zero());
      seen.set(resource, await copyResource(options, resource, source, writer, journal, summary, chosen?.get(resource), (n) => onProgress(resource, n)));
      if (options.signal?.aborted) throw new CopyStopped('interrupted (Ctrl+C)');
    }
    await findDeletions(options, source, target, index, resources, seen, report);
    const syncedAt = journal?.header.watermark;
    if (syncedAt) writeState(options.resultsDir, { from: options.from, to: options.to, synced_at: syncedAt });
  } catch (error) {
    if (!(error instanceof CopyStopped)) throw error;
    report.stopped = error.message;
  } finally {
    journal?.close();
  }
  report.durationMs = Date.now() - started.getTime();
  return report;
}

/**
 * One resource, page by page; each finished page is journaled with the cursor after it. Returns
 * the source ids it read (for deletions), or undefined when it did not read them all (--since, or
 * a resumed resource whose first pages an earlier run read).
 */
async function copyResource(
  options: CopyOptions,
  resource: CopyResource,
  source: CrmClient,
  writer: PageWriter,
  journal: CopyJournal | undefined,
  summary: ResourceSummary,
  chosen: Set<string> | undefined,
  progress: (rows: number) => void,
): Promise<Set<string> | undefined> {
  const done = journal?.pages.get(resource);
  if (done) Object.assign(summary, done.summary);
  if (done?.cursor === null) return undefined; // finished by an earlier run
  const results = options.plan ? undefined : new ResourceResults(join(options.resultsDir, resource), journal?.sizes(resource));
  const ids = options.since || done ? undefined : new Set<string>();
  const query = { limit: PAGE_SIZE, ...(options.since ? { sort: 'updated_at', updated_after: options.since } : {}) };
  const pages = source.pages<SourceRecord>(`/v1/${resource}`, query, done?.cursor || undefined)[Symbol.asyncIterator]();
  let pageCount = done?.pages ?? 0;
  let rows = 0;
  progress(0); // the resource starts now: its rate is counted from here
  try {
    // An incremental subset: chosen records the target lacks that did not change (a new deal's old
    // client) are not in the pages below; they are fetched one by one and written first.
    const fetched =
      options.since && chosen && !done
        ? await writeMissing(options, resource, source, writer, journal, results, summary, chosen)
        : (journal?.fetched.get(resource) ?? new Set<string>());
    let next = pages.next();
    for (let current = await next; !current.done; current = await next) {
      const page = current.value;
      next = pages.next(); // the next page is read while this one is written
      next.catch(() => {});
      for (const r of page.data) ids?.add(r.id);
      const records = chosen ? page.data.filter((r) => chosen.has(r.id) && !fetched.has(r.id)) : page.data;
      await writePage(options, resource, writer, journal, results, summary, records);
      const entry: PageEntry = {
        resource,
        pages: ++pageCount,
        cursor: page.next_cursor,
        summary: { ...summary },
        sizes: results?.sizes() ?? { succeeded: 0, failed: 0 },
      };
      journal?.record(entry);
      progress((rows += records.length));
      if (options.signal?.aborted && page.next_cursor) throw new CopyStopped('interrupted (Ctrl+C)');
    }
  } finally {
    results?.close();
  }
  return ids;
}

/**
 * Writes one page of source records to the target and counts its outcomes into `summary`. Invoices
 * go one by one and write their own results rows as each finishes; the other resources go as one
 * bulk call whose results rows are written here.
 */
async function writePage(
  options: CopyOptions,
  resource: CopyResource,
  writer: PageWriter,
  journal: CopyJournal | undefined,
  results: ResourceResults | undefined,
  summary: ResourceSummary,
  records: SourceRecord[],
): Promise<void> {
  if (resource === 'invoices') {
    for (const o of await writeInvoices(options, writer, journal, results, records as unknown as Invoice[])) summary[o.status]++;
    return;
  }
  const outcomes = await writeBulkPage(writer, resource, records);
  for (const o of outcomes) summary[o.status]++;
  results?.succeeded(outcomes.filter((o) => o.status !== 'failed').map((o) => [o.sourceId, o.targetId ?? '', o.status]));
  results?.failed(outcomes.filter((o) => o.status === 'failed').map((o) => [o.sourceId, o.code ?? 'failed', o.message ?? '']));
}

/**
 * The chosen records of an incremental subset that the target does not hold, fetched by id (GET
 * /v1/{resource}/{id}; one gone meanwhile is skipped) and written as one page, journaled with an
 * empty cursor: --resume then reads the changed pages from the start, and skips these.
 */
async function writeMissing(
  options: CopyOptions,
  resource: CopyResource,
  source: CrmClient,
  writer: PageWriter,
  journal: CopyJournal | undefined,
  results: ResourceResults | undefined,
  summary: ResourceSummary,
  chosen: Set<string>,
): Promise<Set<string>> {
  const records: SourceRecord[] = [];
  for (const id of chosen) {
    if (writer.index.get(resource, id)) continue;
    try {
      records.push(await source.get<SourceRecord>(`/v1/${resource}/${seg(id)}`));
    } catch (error) {
      if (error instanceof CrmApiError && error.status === 404) continue;
      throw error;
    }
  }
  if (records.length === 0) return new Set();
  await writePage(options, resource, writer, journal, results, summary, records);
  const fetched = records.map((r) => r.id);
  journal?.record({ resource, pages: 0, cursor: '', summary: { ...summary }, sizes: results?.sizes() ?? { succeeded: 0, failed: 0 }, fetched });
  return new Set(fetched);
}

/** A page of invoices, --concurrency × 2 at a time (each is a few small requests); each one journaled as it finishes. */
async function writeInvoices(
  options: CopyOptions,
  w: PageWriter,
  journal: CopyJournal | undefined,
  results: ResourceResults | undefined,
  invoices: Invoice[],
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const settled: Outcome[] = []; // finished by the run that was killed: counted, not redone
  const one = async (invoice: Invoice): Promise<Outcome> => {
    // Ctrl+C: the invoices in flight finish and are journaled; --resume goes on from the next.
    if (options.signal?.aborted) throw new CopyStopped('interrupted (Ctrl+C)');
    const earlier = journal?.invoices.get(invoice.id);
    if (earlier && earlier.status !== 'creating')
      return { sourceId: invoice.id, status: earlier.status as Outcome['status'], targetId: w.index.get('invoices', invoice.id)?.id ?? '' };
    let body: Record<string, unknown>;
    try {
      body = w.masker.mask(
        'invoices',
        invoiceBody(invoice, (r, id) => w.index.get(r, id)?.id || undefined),
      );
    } catch (error) {
      if (!(error instanceof MissingReference)) throw error;
      if (options.plan && w.index.get(error.resource, error.sourceId)) return { sourceId: invoice.id, status: 'created' };
      return { sourceId: invoice.id, status: 'failed', code: 'missing_reference', message: error.message };
    }
    // A create the killed run may have sent: sent again with its key, the server answers as then.
    const existing = earlier?.status === 'creating' ? undefined : w.index.get('invoices', invoice.id);
    if (!existing && journal && !options.plan) journal.record({ resource: 'invoices', invoice: invoice.id, status: 'creating', sizes: results!.sizes() });
    try {
      const outcome = await copyInvoice(
        { client: w.target, runId: w.runId, plan: options.plan, targetIsSandbox: options.targetIsSandbox },
        invoice,
        body,
        existing,
      );
      return {
        sourceId: invoice.id,
        status: outcome.status,
        ...(outcome.id ? { targetId: outcome.id } : {}),
        ...(outcome.code ? { code: outcome.code, message: outcome.message } : {}),
      };
    } catch (error) {
      const failure = classifyFailure(error);
      if (failure.stops) throw new CopyStopped(failure.message);
      return { sourceId: invoice.id, status: 'failed', code: failure.code, message: error instanceof CrmApiError ? error.detail : failure.message };
    }
  };
  await inPool(invoices, options.concurrency * 2, async (invoice) => {
    const outcome = await one(invoice);
    const earlier = journal?.invoices.get(invoice.id);
    if (earlier && earlier.status !== 'creating') settled.push(outcome);
    else {
      outcomes.push(outcome);
      if (outcome.status !== 'failed' && outcome.targetId) w.index.set('invoices', invoice.id, { id: outcome.targetId, status: invoice.status });
      if (results && !options.plan) {
        if (outcome.status === 'failed') results.failed([[outcome.sourceId, outcome.code ?? 'failed', outcome.message ?? '']]);
        else results.succeeded([[outcome.sourceId, outcome.targetId ?? '', outcome.status]]);
        journal?.record({ resource: 'invoices', invoice: invoice.id, status: outcome.status, sizes: results.sizes() });
      }
    }
  });
  // Their results were written one by one above; the caller counts them (the settled ones too).
  return [...settled, ...outcomes];
}

/**
 * Records the copy made whose source record is gone: found by comparing ids when the whole source
 * was read, else from the source's `*.deleted` events since --since. Reported; deleted in the
 * target only with --prune (deals, then leads, then clients; invoices are never deleted).
 */
async function findDeletions(
  options: CopyOptions,
  source: CrmClient,
  target: CrmClient,
  index: TargetIndex,
  resources: CopyResource[],
  seen: Map<CopyResource, Set<string> | undefined>,
  report: CopyReport,
): Promise<void> {
  const gone = new Map<CopyResource, string[]>();
  let fromEvents: Map<string, string> | undefined;
  for (const resource of resources.filter((r) => r !== 'invoices')) {
    let ids = seen.get(resource);
    if (!ids && !options.since) ids = await allSourceIds(source, resource);
    if (ids) {
      const all = ids;
      gone.set(
        resource,
        [...index.sourceIds(resource)].filter((id) => !all.has(id)),
      );
    } else {
      fromEvents ??= await deletedSince(source, options.since!);
      const events = fromEvents;
      gone.set(
        resource,
        [...index.sourceIds(resource)].filter((id) => events.get(id) === resource),
      );
    }
  }
  for (const resource of ['deals', 'leads', 'clients'] as const) {
    const ids = gone.get(resource) ?? [];
    const summary = report.resources[resource];
    if (!summary || ids.length === 0) continue;
    summary.deleted_in_source = ids.length;
    if (!options.prune || options.plan) continue;
    const results = new ResourceResults(join(options.resultsDir, resource), 'append');
    try {
      for (const id of ids) {
        const targetId = index.get(resource, id)!.id;
        try {
          await target.request('DELETE', `/v1/${resource}/${seg(targetId)}`);
        } catch (error) {
          const failure = classifyFailure(error);
          if (failure.stops) throw new CopyStopped(failure.message);
          if (!(error instanceof CrmApiError && error.status === 404)) {
            results.failed([[id, failure.code, failure.message]]);
            continue;
          }
        }
        summary.pruned++;
        results.succeeded([[id, targetId, 'pruned']]);
      }
    } finally {
      results.close();
    }
  }
}

async function allSourceIds(source: CrmClient, resource: CopyResource): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const page of source.pages<{ id: string }>(`/v1/${resource}`, { limit: PAGE_SIZE })) for (const r of page.data) ids.add(r.id);
  return ids;
}

/** Source id → resource, of every record deleted in the source after `since` (its events; kept 30 days). */
async function deletedSince(source: CrmClient, since: string): Promise<Map<string, string>> {
  const deleted = new Map<string, string>();
  const query = { limit: PAGE_SIZE, type: 'client.deleted,lead.deleted,deal.deleted', created_after: since };
  for await (const page of source.pages<{ type: string; data: { object: { id: string } } }>('/v1/events', query)) {
    for (const event of page.data) deleted.set(event.data.object.id, `${event.type.split('.')[0]}s`);
  }
  return deleted;
}

/**
 * Where the next `--since last` starts: the source's latest updated_at when this copy started, on
 * the source's own clock (so a clock here that is off cannot skip a change). Whatever changes
 * during the copy has a later updated_at, and is copied next time if this run missed it.
 */
async function latestChange(source: CrmClient, since: string | undefined): Promise<string> {
  let latest = since ?? '1970-01-01T00:00:00.000Z';
  for (const resource of COPY_RESOURCES) {
    const page = await source.get<{ data: { updated_at: string }[] }>(`/v1/${resource}`, { limit: 1, sort: 'updated_at', order: 'desc' });
    const at = page.data[0]?.updated_at;
    if (at && at > latest) latest = at;
  }
  return new Date(Date.parse(latest) - 1).toISOString(); // updated_after is strict: the record at that instant comes again, unchanged
}
