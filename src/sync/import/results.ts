import { closeSync, ftruncateSync, fstatSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir, openPrivate } from '../../private-files.js';
import { UTF8_BOM, csvLine, csvLines } from '../csv/line.js';
import type { SourceRow } from '../csv/source.js';

/**
 * The results folder of an import, after Salesforce Bulk's result files:
 *   succeeded.csv   line, id, status (created, updated or unchanged)
 *   failed.csv      the row's own columns, then line, error_code, error_message
 *   unprocessed.csv the row's own columns, then line: rows never sent (the import stopped early)
 * Rows appear in the order their batches finished; `line` is the row's first line in the file.
 * Writes are synchronous and whole-batch, so the journal can record the files' sizes after them.
 * Cells are escaped as in an export (formula-cells.ts) unless --raw: failed.csv repeats the
 * file's own cells, which may be an attacker's, and is made to be opened in a spreadsheet; the
 * import reads them back, so a corrected failed.csv imports with the same command.
 */
export class ResultsFolder {
  private readonly succeededFd: number;
  private readonly failedFd: number;
  private unprocessedFd: number | undefined;

  constructor(
    readonly dir: string,
    private readonly header: string[],
    /** Sizes to cut the files back to, when resuming; fresh files otherwise. */
    resumeAt: { succeeded: number; failed: number } | undefined,
    /** --raw: cells as they are. */
    private readonly raw: boolean,
    /** --bom: each new file starts with a UTF-8 byte-order mark, for Excel. */
    private readonly bom = false,
  ) {
    makePrivateDir(dir); // the rows of the file, and the server's answers about them
    rmSync(this.path('unprocessed.csv'), { force: true }); // only ever about the last run
    const first = bom ? UTF8_BOM : '';
    this.succeededFd = reopen(this.path('succeeded.csv'), resumeAt?.succeeded, first + csvLine(['line', 'id', 'status'], raw));
    this.failedFd = reopen(this.path('failed.csv'), resumeAt?.failed, first + csvLine([...header, 'line', 'error_code', 'error_message'], raw));
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  succeeded(rows: [line: number, id: string, status: string][]): void {
    if (rows.length) writeSync(this.succeededFd, csvLines(rows, this.raw));
  }

  failed(rows: { row: SourceRow; code: string; message: string }[]): void {
    if (rows.length)
      writeSync(
        this.failedFd,
        csvLines(
          rows.map(({ row, code, message }) => [...this.fit(row.values), row.line, code, message]),
          this.raw,
        ),
      );
  }

  unprocessed(rows: SourceRow[]): void {
    if (!rows.length) return;
    this.unprocessedFd ??= reopen(this.path('unprocessed.csv'), undefined, (this.bom ? UTF8_BOM : '') + csvLine([...this.header, 'line'], this.raw));
    writeSync(
      this.unprocessedFd,
      csvLines(
        rows.map((row) => [...this.fit(row.values), row.line]),
        this.raw,
      ),
    );
  }

  get hasUnprocessed(): boolean {
    return this.unprocessedFd !== undefined;
  }

  sizes(): { succeeded: number; failed: number } {
    return { succeeded: fstatSync(this.succeededFd).size, failed: fstatSync(this.failedFd).size };
  }

  close(): void {
    for (const fd of [this.succeededFd, this.failedFd, this.unprocessedFd]) if (fd !== undefined) closeSync(fd);
  }

  /** A row with too few or too many cells still lines up under the header. */
  private fit(values: string[]): string[] {
    return values.length === this.header.length ? values : this.header.map((_, i) => values[i] ?? '');
  }
}

/** A fresh file starting with its header line, or the file cut back to `size` to append to. */
function reopen(path: string, size: number | undefined, headerLine: string): number {
  if (size === undefined) {
    const fd = openPrivate(path, 'w');
    writeSync(fd, headerLine);
    return fd;
  }
  const fd = openPrivate(path, 'a');
  ftruncateSync(fd, size); // appends land at the (new) end of the file
  return fd;
}
