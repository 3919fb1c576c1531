import { createWriteStream, existsSync, readFileSync, truncateSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { CrmClient } from '../../client/client.js';
import { utf8Text } from '../../client/utf8.js';
import { openPrivate, writePrivateFile } from '../../private-files.js';
import type { SyncResource } from '../columns.js';
import { UTF8_BOM, csvLine } from '../csv/line.js';
import { SyncUsageError } from '../errors.js';
import { pageRenderer, type ListPage, type RenderSpec } from './render.js';
import { exportColumns, exportTargets } from '../flatten.js';
import { startRenderer } from './render-thread.js';
import { fieldObjectOf, listDefinitions } from '../fields/definitions.js';

/**
 * `crm sync export`: every record, page by page (limit 1000, keyset cursors), as CSV to a file or
 * stdout. The next page is fetched while the current one is rendered (on a thread of its own,
 * render-thread.ts) and written. For a file, a small state file beside it (FILE.state.json) holds
 * the cursor after the last page written and the file's size then, so --resume cuts off a
 * half-written page and goes on from that cursor.
 */
export interface ExportOptions {
  resource: SyncResource;
  /** A file path, or '-' for stdout. */
  out: string;
  fields?: string[] | undefined;
  /** RFC 3339: only records updated after it, oldest change first (incremental sync). */
  since?: string | undefined;
  resume: boolean;
  /** csv (default), or jsonl: one record per line as the API returns it (nested, typed). */
  format?: 'csv' | 'jsonl' | undefined;
  /** --raw: cells as they are, without the `'` before what a spreadsheet would run (formula-cells.ts). JSON Lines is never escaped. */
  raw?: boolean | undefined;
  /** --bom: a UTF-8 byte-order mark first, for Excel (csv/line.ts). CSV only. */
  bom?: boolean | undefined;
}

export interface ExportReport {
  rows: number;
  out: string;
  durationMs: number;
  /** True when --resume found the export already complete. */
  alreadyComplete: boolean;
  /** Stopped by Ctrl+C before the last page. */
  interrupted?: boolean;
}

interface ExportState {
  resource: SyncResource;
  query: Record<string, string | number>;
  fields: string[] | null;
  columns: string[];
  cursor: string | null;
  rows: number;
  bytes: number;
  done: boolean;
  /** Absent in a state written before cells were escaped: that export wrote them raw. */
  raw?: boolean;
}

export const PAGE_SIZE = 1000;
const STATE_EVERY_MS = 500;
export const statePath = (out: string): string => `${out}.state.json`;

/**
 * `signal` (Ctrl+C) stops the export after the page being written: the state is saved, and
 * --resume goes on from there.
 */
export async function exportCsv(
  options: ExportOptions,
  client: CrmClient,
  onProgress: (rows: number) => void = () => {},
  signal?: AbortSignal,
): Promise<ExportReport> {
  const started = Date.now();
  const toStdout = options.out === '-';
  if (toStdout && options.resume) throw new SyncUsageError('--resume needs --out FILE: stdout cannot be continued.');

  let state: ExportState | undefined;
  if (options.resume) {
    state = readState(options);
    if (state.done) return { rows: state.rows, out: options.out, durationMs: Date.now() - started, alreadyComplete: true };
    truncateSync(options.out, state.bytes); // drops a page written after the state was last saved
  }

  const definitions = await listDefinitions(client, fieldObjectOf(options.resource)).catch((error: unknown) => {
    // A key that may not read definitions exports as before definitions: custom.<key> columns of the first page.
    if (error instanceof SyncUsageError) return undefined;
    throw error;
  });
  const query = state?.query ?? { limit: PAGE_SIZE, ...(options.since ? { sort: 'updated_at', updated_after: options.since } : {}) };
  const pages = client.pageBodies(`/v1/${options.resource}`, query, state?.cursor ?? undefined)[Symbol.asyncIterator]();
  let next = pages.next();
  let current = await next;
  // The first page is parsed here, for the columns (its custom fields) and rendered here too.
  let first = current.done ? undefined : (JSON.parse(utf8Text(current.value.bytes)) as ListPage);
  const columns = state?.columns ?? exportColumns(options.resource, first?.data ?? [], options.fields, definitions);
  const jsonl = options.format === 'jsonl';
  // A resumed file goes on as it was started: one file, one rule for its cells, or it does not import back the same.
  const raw = state ? state.raw !== false : options.raw === true;
  const spec: RenderSpec = { format: jsonl ? 'jsonl' : 'csv', targets: jsonl ? [] : exportTargets(options.resource, columns, definitions), raw };
  // The later pages on a thread of their own (render-thread.ts), started while the first is written.
  const renderer = first?.next_cursor ? startRenderer(spec) : undefined;
  // The records of the CRM: 0600, as every file crm writes.
  const output: Writable = toStdout ? process.stdout : createWriteStream('', { fd: openPrivate(options.out, state ? 'a' : 'w') });
  const saved: ExportState = state ?? {
    resource: options.resource,
    query,
    fields: options.fields ?? null,
    columns,
    cursor: null,
    rows: 0,
    bytes: 0,
    done: false,
    raw,
  };

  let savedAt = 0;
  try {
    if (!state && !jsonl) saved.bytes += await write(output, `${options.bom ? UTF8_BOM : ''}${csvLine(columns, raw)}`);
    while (!current.done) {
      const { bytes, next_cursor } = current.value;
      next = pages.next(); // fetch the next page while this one is rendered and written
      next.catch(() => {}); // its failure is reported where it is awaited, below
      const page = first ? pageRenderer(spec)(first) : await renderer!.render(bytes);
      first = undefined;
      if (page.next_cursor !== next_cursor)
        throw new Error(
          `The server's page has next_cursor ${JSON.stringify(page.next_cursor)}, but the export read ${JSON.stringify(next_cursor)} at its end.`,
        );
      saved.bytes += await write(output, page.output);
      // Written: the page's bytes from the render thread freed now, as it frees the page's JSON (render-worker.ts).
      if (typeof page.output !== 'string' && page.output.buffer instanceof ArrayBuffer && page.output.byteLength === page.output.buffer.byteLength)
        page.output.buffer.transfer(0);
      saved.rows += page.rows;
      saved.cursor = next_cursor;
      saved.done = next_cursor === null;
      // At most twice a second: --resume only needs a cursor and the file size that go together.
      if (!toStdout && Date.now() - savedAt >= STATE_EVERY_MS) {
        writePrivateFile(statePath(options.out), JSON.stringify(saved));
        savedAt = Date.now();
      }
      onProgress(saved.rows);
      if (signal?.aborted) break;
      current = await next;
    }
  } finally {
    await renderer?.close();
    if (!toStdout) {
      await new Promise<void>((resolve) => output.end(resolve));
      writePrivateFile(statePath(options.out), JSON.stringify(saved)); // also after a failure: resume from the last page written
    }
  }
  return { rows: saved.rows, out: options.out, durationMs: Date.now() - started, alreadyComplete: false, interrupted: !saved.done && signal?.aborted === true };
}

/** The state of the export that wrote FILE; --resume continues it as it was started (its --since, --fields and --raw). */
function readState(options: ExportOptions): ExportState {
  const path = statePath(options.out);
  if (!existsSync(path) || !existsSync(options.out))
    throw new SyncUsageError(`Nothing to resume: ${path} or ${options.out} does not exist. Run without --resume to start.`);
  const state = JSON.parse(readFileSync(path, 'utf8')) as ExportState;
  if (state.resource !== options.resource)
    throw new SyncUsageError(`${options.out} is an export of ${state.resource}, not ${options.resource}. Run without --resume to start over.`);
  return state;
}

/** Writes text or bytes and waits until the stream took them (backpressure); returns their size in bytes. */
function write(stream: Writable, chunk: string | Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    stream.write(chunk, (error) => (error ? reject(error) : resolve(typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength)));
  });
}
