import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, ftruncateSync, fstatSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir, openPrivate, writePrivateFile } from '../../private-files.js';
import type { BulkSummary } from '../../schemas/bulk.js';
import { csvLine, csvLines } from '../csv/line.js';
import { SyncUsageError } from '../errors.js';
import type { CopyResource } from '../mask/rules.js';

/**
 * The folder of a copy (--results, default .crm/copy/<from>-to-<to>/), 0700 and its files 0600:
 *   <resource>/succeeded.csv  source_id, target_id, status (created, updated, unchanged, pruned)
 *   <resource>/failed.csv     source_id, error_code, error_message
 *   journal.jsonl             what --resume reads: the run (its id, ends and options), then one
 *                             line per finished page (its cursor and counts) or invoice, with the
 *                             results files' sizes after it
 *   state.json                after a complete copy: when it started, for `--since last`
 * Like the import's journal (journal.ts): one write() a line, a torn last line ignored.
 */
export interface CopyHeader {
  from: string;
  to: string;
  /** In every Idempotency-Key of the run: a resumed run replays its own requests; a new run makes new ones. */
  run_id: string;
  options: string;
  /** --since as resolved when the run started (30d means the same time on --resume). */
  since?: string | undefined;
  /** The source's latest change when the run started: state.json's synced_at once it completes. */
  watermark?: string | undefined;
}

export interface PageEntry {
  resource: CopyResource;
  /** Pages finished of this resource, this one included. */
  pages: number;
  /** Where the next page starts; null: the resource is done. */
  cursor: string | null;
  summary: BulkSummary & { pruned: number };
  sizes: { succeeded: number; failed: number };
  /** The page of an incremental subset's records fetched by id: --resume skips them in the changed pages. */
  fetched?: string[];
}

export interface InvoiceEntry {
  resource: 'invoices';
  invoice: string;
  status: string;
  sizes: { succeeded: number; failed: number };
}

export interface CopyState {
  from: string;
  to: string;
  /** The start of the last complete copy, minus a margin for clocks that differ: `--since last` copies what changed after it. */
  synced_at: string;
}

export class CopyJournal {
  private constructor(
    private readonly fd: number,
    readonly header: CopyHeader,
    readonly pages: Map<CopyResource, PageEntry>,
    readonly invoices: Map<string, InvoiceEntry>,
    readonly fetched = new Map<CopyResource, Set<string>>(),
    private readonly lastSizes = new Map<CopyResource, { succeeded: number; failed: number }>(),
  ) {}

  static path = (dir: string): string => join(dir, 'journal.jsonl');

  static create(dir: string, header: Omit<CopyHeader, 'run_id'>): CopyJournal {
    makePrivateDir(dir);
    const full = { ...header, run_id: randomBytes(8).toString('hex') };
    const fd = openPrivate(CopyJournal.path(dir), 'w');
    writeSync(fd, `${JSON.stringify({ header: full })}\n`);
    return new CopyJournal(fd, full, new Map(), new Map());
  }

  static resume(dir: string, header: Omit<CopyHeader, 'run_id'>): CopyJournal {
    const path = CopyJournal.path(dir);
    if (!existsSync(path)) throw new SyncUsageError(`Nothing to resume: ${path} does not exist. Run without --resume to start.`);
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .flatMap((line) => {
        try {
          return line ? [JSON.parse(line) as Record<string, unknown>] : [];
        } catch {
          return []; // torn by a kill
        }
      });
    const earlier = lines[0]?.header as CopyHeader | undefined;
    if (!earlier) throw new SyncUsageError(`${path} is not a copy journal. Run without --resume to start over.`);
    const differs = (['from', 'to', 'options'] as const).filter((k) => earlier[k] !== header[k]);
    if (differs.length)
      throw new SyncUsageError(
        `The journal in ${dir} is of a copy with other ${differs.join(', ')}. Rerun with the same --from, --to and options, or without --resume.`,
      );
    const pages = new Map<CopyResource, PageEntry>();
    const invoices = new Map<string, InvoiceEntry>();
    const sizes = new Map<CopyResource, { succeeded: number; failed: number }>();
    const fetched = new Map<CopyResource, Set<string>>();
    for (const line of lines.slice(1)) {
      // In the order written: the last line of a resource holds its files' sizes (a Map keeps an
      // invoice where it was first set, not where it was last written).
      if (typeof line.resource === 'string' && line.sizes) sizes.set(line.resource as CopyResource, line.sizes as { succeeded: number; failed: number });
      if (typeof line.invoice === 'string') invoices.set(line.invoice, line as unknown as InvoiceEntry);
      else if (typeof line.resource === 'string') {
        pages.set(line.resource as CopyResource, line as unknown as PageEntry);
        if (Array.isArray(line.fetched)) fetched.set(line.resource as CopyResource, new Set(line.fetched as string[]));
        if (line.resource === 'invoices') invoices.clear(); // counted in the page's summary: only a torn page's invoices matter
      }
    }
    return new CopyJournal(openPrivate(path, 'a'), earlier, pages, invoices, fetched, sizes);
  }

  record(entry: PageEntry | InvoiceEntry): void {
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
  }

  /** The results files' sizes an earlier run reached for a resource (to cut a torn end off). */
  sizes(resource: CopyResource): { succeeded: number; failed: number } | undefined {
    return this.lastSizes.get(resource);
  }

  close(): void {
    closeSync(this.fd);
  }
}

export function readState(dir: string): CopyState | undefined {
  const path = join(dir, 'state.json');
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as CopyState;
}

export function writeState(dir: string, state: CopyState): void {
  makePrivateDir(dir);
  writePrivateFile(join(dir, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
}

/** succeeded.csv and failed.csv of one resource, escaped as every CSV crm writes (formula-cells.ts). */
export class ResourceResults {
  private readonly succeededFd: number;
  private readonly failedFd: number;

  /** resumeAt: cut back to these sizes (--resume), or append (prune after the writes); else fresh files. */
  constructor(dir: string, resumeAt: { succeeded: number; failed: number } | 'append' | undefined) {
    makePrivateDir(dir);
    const at = (which: 'succeeded' | 'failed') => (resumeAt === 'append' ? 'append' : resumeAt?.[which]);
    this.succeededFd = open(join(dir, 'succeeded.csv'), at('succeeded'), csvLine(['source_id', 'target_id', 'status']));
    this.failedFd = open(join(dir, 'failed.csv'), at('failed'), csvLine(['source_id', 'error_code', 'error_message']));
  }

  succeeded(rows: [sourceId: string, targetId: string, status: string][]): void {
    if (rows.length) writeSync(this.succeededFd, csvLines(rows));
  }

  failed(rows: [sourceId: string, code: string, message: string][]): void {
    if (rows.length) writeSync(this.failedFd, csvLines(rows));
  }

  sizes(): { succeeded: number; failed: number } {
    return { succeeded: fstatSync(this.succeededFd).size, failed: fstatSync(this.failedFd).size };
  }

  close(): void {
    closeSync(this.succeededFd);
    closeSync(this.failedFd);
  }
}

function open(path: string, size: number | 'append' | undefined, header: string): number {
  if (size === undefined || (size === 'append' && !existsSync(path))) {
    const fd = openPrivate(path, 'w');
    writeSync(fd, header);
    return fd;
  }
  const fd = openPrivate(path, 'a');
  if (size !== 'append') ftruncateSync(fd, size);
  return fd;
}
