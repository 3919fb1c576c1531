import { closeSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { openPrivate } from '../../private-files.js';
import { CrmApiError } from '../../client/errors.js';
import type { BulkResult } from '../../schemas/bulk.js';
import { UTF8_BOM, csvLine, csvLines } from '../csv/line.js';

/**
 * `crm sync import --plan` (docs/sync.md#plan---plan-and-bulk-dry_run): every batch goes to the server as a bulk dry run, and
 * plan.csv in the results folder says what the import would do, one line per changed field:
 *   line, status, id, field, from, to
 * A created, unchanged or failed row has one line with an empty field. Values are JSON for
 * anything but strings (a number stays 5, a cleared field is null). Cells are escaped as in an
 * export (formula-cells.ts) unless --raw: `from` and `to` are the records' own values.
 */
export class PlanFile {
  private readonly fd: number;
  readonly path: string;

  constructor(
    dir: string,
    /** --raw: cells as they are. */
    private readonly raw: boolean,
    /** --bom: a UTF-8 byte-order mark first, for Excel. */
    bom = false,
  ) {
    this.path = join(dir, 'plan.csv');
    this.fd = openPrivate(this.path, 'w');
    writeSync(this.fd, (bom ? UTF8_BOM : '') + csvLine(['line', 'status', 'id', 'field', 'from', 'to'], raw));
  }

  add(line: number, result: BulkResult): void {
    const rows: string[][] = [];
    const changes = Object.entries(result.changes ?? {});
    if (result.status === 'updated' && changes.length) {
      for (const [field, { from, to }] of changes) rows.push([String(line), result.status, result.id ?? '', field, cell(from), cell(to)]);
    } else rows.push([String(line), result.status, result.id ?? '', '', '', '']);
    writeSync(this.fd, csvLines(rows, this.raw));
  }

  close(): void {
    closeSync(this.fd);
  }

  /** A plan that could not be made leaves no file that looks like one. */
  discard(): void {
    this.close();
    rmSync(this.path, { force: true });
  }
}

const cell = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));

/** A server without bulk dry runs (docs/sync.md#plan---plan-and-bulk-dry_run) refuses the unknown field (422) or the request (400): a plan cannot be made there. */
export function isDryRunRefusal(error: unknown): boolean {
  if (!(error instanceof CrmApiError) || (error.status !== 400 && error.status !== 422)) return false;
  return JSON.stringify([error.detail, error.errors ?? []]).includes('dry_run');
}

export const NO_DRY_RUN =
  'This server does not support bulk dry runs ("dry_run" was refused), so no plan can be made. ' +
  'Nothing was written. Use --dry-run to check the file locally, or update the server.';

/** The server cannot plan: the command fails (exit 1), having written nothing. */
export class PlanRefused extends Error {
  override name = 'PlanRefused';
}
