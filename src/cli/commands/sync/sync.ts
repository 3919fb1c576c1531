import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BulkResponse } from '../../../schemas/bulk.js';
import type { ExportOptions } from '../../../sync/export/export.js';
import type { ImportOptions, ImportReport } from '../../../sync/import/import.js';
import type { NewField } from '../../../sync/import/unknown-columns.js';
import type { CrmClient } from '../../../client/client.js';
import { clientFor, withClient, type GlobalOptions } from '../../api.js';
import { CliError, ExitCode, bold, dim, green, jsonText, printJson, red, terminalSafe, yellow } from '../../output.js';
import { onInterrupt } from '../../interrupt.js';
import { duration, startProgress } from '../../progress.js';
import { waitNotes } from './wait-notes.js';
import { limitHeapGrowth } from '../../../heap-limits.js';
import { EXIT } from '../../exit-codes.js';

/**
 * `crm sync import|export`: CSV in and out of any server with this API (docs/sync.md, docs/api.md#bulk-api). Each command
 * loads its own code when it runs: an import does not pay for loading the export, nor the reverse.
 */

export interface ImportFlags extends Omit<ImportOptions, 'resultsDir' | 'fields' | 'unknownColumns'> {
  results?: string | undefined;
  retries: number;
  createFields?: boolean | undefined;
  ignoreUnknown?: boolean | undefined;
}

/**
 * A free plan takes at most 100 records per bulk call (docs/accounts.md#plans-and-the-trial): the batch shrinks to fit,
 * with a note, instead of every batch failing with 402. A server without GET /v1/account (one
 * that is not a crm sandbox) keeps the batch size asked for.
 */
export async function batchSizeForPlan(client: CrmClient, asked: number, options: GlobalOptions): Promise<number> {
  const account = await client.get<{ plan: string; limits?: { bulk_records?: number } }>('/v1/account').catch(() => undefined);
  const max = account?.limits?.bulk_records;
  if (!max || max >= asked) return asked;
  if (!options.json)
    process.stderr.write(
      `${yellow('note', process.stderr)}: the ${account.plan} plan takes at most ${max} records per bulk call; sending batches of ${max}.\n`,
    );
  return max;
}

export async function importCommand(options: GlobalOptions, flags: ImportFlags): Promise<void> {
  limitHeapGrowth();
  if (flags.resume && flags.dryRun) throw new CliError('--resume and --dry-run do not go together: a dry run sends nothing to resume.', EXIT.usage);
  if (flags.plan && (flags.dryRun || flags.resume))
    throw new CliError('--plan goes alone: --dry-run checks locally, --resume continues a real import.', EXIT.usage);
  if (flags.createFields && flags.ignoreUnknown)
    throw new CliError('--create-fields and --ignore-unknown do not go together: define the unknown columns as fields, or leave them out.', EXIT.usage);
  if (flags.createFields && flags.dryRun)
    throw new CliError(
      '--create-fields needs the server (it defines the fields there); --dry-run sends nothing. Use --plan to see the fields it would define.',
      EXIT.usage,
    );
  let spooled: string | undefined;
  if (flags.file === '-') {
    if (flags.resume) throw new CliError('--resume needs a file: stdin cannot be read again. Save it to a file first.', EXIT.usage);
    const { spoolStdin } = await import('../../../sync/import/stdin.js');
    const file = await spoolStdin();
    flags = { ...flags, file, results: flags.results ?? 'stdin.results' };
    spooled = file;
  }
  const { importCsv } = await import('../../../sync/import/import.js');
  const progress = await startProgress(`${flags.dryRun ? 'Checking' : flags.plan ? 'Planning' : 'Importing'} ${flags.resource}`, options);
  // Retries are worth seeing (a struggling server shows before the command gives up), once per wait.
  const waits = waitNotes(progress, flags.retries);
  // A dry run sends nothing, so it needs no key and no server.
  const client = flags.dryRun
    ? undefined
    : clientFor(options, { retry: { maxRetries: flags.retries }, connections: flags.concurrency, onRetry: waits.onRetry });
  if (client) flags = { ...flags, batchSize: await batchSizeForPlan(client, flags.batchSize, options) };
  let report: ImportReport;
  const interrupt = onInterrupt();
  try {
    const send = async (path: string, body: Buffer, key: string) => {
      const answer = await client!.exchange<BulkResponse>('POST', path, { bodyText: body, idempotencyKey: key });
      return { body: answer.body, replayed: String(answer.headers['idempotent-replayed']) === 'true' };
    };
    const { fieldsApi } = await import('../../../sync/fields/definitions.js');
    const importOptions = {
      ...flags,
      resultsDir: flags.results,
      signal: interrupt.signal,
      fields: client ? fieldsApi(client) : undefined,
      unknownColumns: flags.createFields ? ('create' as const) : flags.ignoreUnknown ? ('ignore' as const) : ('stop' as const),
    };
    report = await importCsv(importOptions, send, (p) => {
      waits.settled();
      progress.update(p.rows, p.bytes, p.size);
    });
  } finally {
    interrupt.dispose();
    progress.stop();
    await client?.close();
    if (spooled) rmSync(dirname(spooled), { recursive: true, force: true }); // the copy of stdin
  }
  if (report.keptAsCustom && !options.json) {
    process.stderr.write(
      `${yellow('note', process.stderr)}: --from ${flags.from} does not know the column(s) ${report.keptAsCustom.map((c) => `"${terminalSafe(c, true)}"`).join(', ')}; kept as custom.<column>.\n`,
    );
  }
  if (!options.json) printFieldNotes(report);
  printImport(report, options.json);
  if (report.summary.failed > 0 || report.unprocessed > 0 || report.stopped) throw new ExitCode(EXIT.failure);
}

const fieldJson = (f: NewField) => ({
  column: f.column,
  key: f.key,
  label: f.label,
  type: f.type,
  ...(f.options ? { options: f.options.map((o) => o.value) } : {}),
});

/** What --create-fields defined (or, planning, would define) and what --ignore-unknown left out, on stderr before the summary. */
function printFieldNotes(report: ImportReport): void {
  const err = process.stderr;
  const describeField = (f: NewField) => {
    const options = f.options
      ? `: ${f.options
          .slice(0, 8)
          .map((o) => o.value)
          .join(', ')}${f.options.length > 8 ? `, … (${f.options.length})` : ''}`
      : '';
    return `    ${f.key} (${f.type}${options}) ← "${terminalSafe(f.column, true)}"\n`;
  };
  if (report.fieldsToCreate?.length) {
    // The plan's own output (stdout): what the import would define, before what it would write.
    process.stdout.write(
      `${bold('Would define')} ${report.fieldsToCreate.length} custom field(s) ${dim('(not created; their cells are checked, not sent)')}:\n`,
    );
    for (const f of report.fieldsToCreate) process.stdout.write(describeField(f));
  }
  if (report.fieldsCreated?.length) {
    err.write(`${yellow('note', err)}: defined ${report.fieldsCreated.length} custom field(s):\n`);
    for (const f of report.fieldsCreated) err.write(describeField(f));
  }
  if (report.ignoredColumns?.length)
    err.write(
      `${yellow('note', err)}: left out ${report.ignoredColumns.length} column(s) that fill no field (--ignore-unknown): ${report.ignoredColumns.map((c) => `"${terminalSafe(c, true)}"`).join(', ')}.\n`,
    );
}

function printImport(report: ImportReport, json: boolean): void {
  const { summary, rows, unprocessed, resultsDir, durationMs, stopped, dryRun, plan, replayed } = report;
  if (json) {
    return printJson({
      summary,
      rows,
      results_dir: resultsDir,
      duration_ms: durationMs,
      batches: report.batches,
      ...(replayed ? { replayed } : {}),
      ...(unprocessed ? { unprocessed } : {}),
      ...(stopped ? { stopped } : {}),
      ...(dryRun ? { dry_run: true } : {}),
      ...(plan ? { plan } : {}),
      ...(report.keptAsCustom ? { kept_as_custom: report.keptAsCustom } : {}),
      ...(report.fieldsCreated ? { fields_created: report.fieldsCreated.map(fieldJson) } : {}),
      ...(report.fieldsToCreate ? { fields_to_create: report.fieldsToCreate.map(fieldJson) } : {}),
      ...(report.ignoredColumns ? { ignored_columns: report.ignoredColumns } : {}),
    });
  }
  const out = process.stdout;
  const n = (count: number) => count.toLocaleString('en');
  if (plan) {
    out.write(`${bold('Plan')} for ${n(rows)} rows ${dim('(nothing was written)')}\n`);
    out.write(`  would create ${summary.created} · update ${summary.updated} · leave unchanged ${summary.unchanged} · fail ${summary.failed}\n`);
    out.write(`  Changes: ${plan}\n  Import with the same command without --plan.\n`);
    if (stopped) out.write(`${red('Stopped early')}: ${stopped}\n`);
    return;
  }
  const rate = Math.round(rows / Math.max(durationMs / 1000, 0.001)).toLocaleString('en');
  const took = dim(`in ${duration(durationMs / 1000)} (${rate} rows/s)`);
  if (dryRun) {
    const invalid = summary.failed ? red(`${n(summary.failed)} invalid`) : '0 invalid';
    out.write(`${bold(`${n(rows)} rows checked`)}: ${green(`${n(rows - summary.failed)} valid`)}, ${invalid} ${dim('(nothing was sent)')} ${took}\n`);
  } else {
    // The headline adds up to the rows read: each row is created, updated, unchanged, failed or not sent.
    const parts = [
      summary.created ? `${n(summary.created)} created` : '',
      summary.updated ? `${n(summary.updated)} updated` : '',
      summary.unchanged ? `${n(summary.unchanged)} unchanged` : '',
      summary.failed ? red(`${n(summary.failed)} failed`) : '',
      unprocessed ? red(`${n(unprocessed)} not sent`) : '',
    ].filter(Boolean);
    out.write(`${bold(`${n(rows)} rows`)}: ${parts.length ? parts.join(', ') : 'nothing to import'} ${took}\n`);
    if (replayed) out.write(`  ${yellow(replayedText(replayed, report.batches))}\n`);
  }
  if (stopped && report.unreadable) out.write(`${red('Stopped early')}: ${stopped}\n  ${unreadableNext(report, n(unprocessed))}\n`);
  else if (stopped)
    out.write(
      `${red('Stopped early')}: ${stopped}\n  ${n(unprocessed)} row(s) were not sent (unprocessed.csv). Rerun the same command with --resume to send them.\n`,
    );
  out.write(`  Results: ${resultsDir}/${summary.failed ? ' (see failed.csv for the reasons)' : ''}\n`);
}

/** What became of the rows around one the file could not be read past, and how to go on. */
function unreadableNext(report: ImportReport, unprocessed: string): string {
  const sent = `Nothing after that row was read${report.unprocessed ? `; the ${unprocessed} row(s) after the last full batch were not sent (unprocessed.csv)` : ''}.`;
  if (report.dryRun) return `${sent} Check the file again once it is fixed${report.unreadable!.resumable ? ' or the cap is raised' : ''}.`;
  const fixed = 'Once the file is fixed, rerun the same command (within 24 h): batches already sent are replayed, not written twice.';
  return report.unreadable!.resumable ? `${sent} With a higher --max-field-size, rerun the same command with --resume to go on. ${fixed}` : `${sent} ${fixed}`;
}

/** "Replayed 4 of 4 batches (lines 2-2001): …" — a rerun says that it wrote nothing. */
function replayedText(replayed: NonNullable<ImportReport['replayed']>, batches: number): string {
  const ranges = replayed.lines.slice(0, 5).map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`));
  if (replayed.lines.length > 5) ranges.push('…');
  const all = replayed.batches === batches;
  return (
    `Replayed ${replayed.batches} of ${batches} batch${batches === 1 ? '' : 'es'} (lines ${ranges.join(', ')}): ` +
    `${all ? 'this file was' : 'those rows were'} sent before with the same content, so the server answered from its idempotency store ` +
    `and wrote nothing again; their counts are those of the first run.`
  );
}

export interface ExportFlags extends ExportOptions {
  retries: number;
}

export async function exportCommand(options: GlobalOptions, flags: ExportFlags): Promise<void> {
  limitHeapGrowth();
  const toStdout = flags.out === '-';
  const { exportCsv } = await import('../../../sync/export/export.js');
  const progress = await startProgress(`Exporting ${flags.resource}`, options);
  const interrupt = onInterrupt();
  try {
    const waits = waitNotes(progress, flags.retries);
    const pageDone = (rows: number) => {
      waits.settled();
      progress.update(rows);
    };
    const report = await withClient(options, (client) => exportCsv(flags, client, pageDone, interrupt.signal), {
      retry: { maxRetries: flags.retries },
      onRetry: waits.onRetry,
    });
    progress.stop();
    const line = {
      rows: report.rows,
      out: report.out,
      duration_ms: report.durationMs,
      ...(report.alreadyComplete ? { already_complete: true } : {}),
      ...(report.interrupted ? { stopped: 'interrupted' } : {}),
    };
    // With --out -, stdout is the CSV and nothing else: the report goes to stderr.
    if (options.json) toStdout ? process.stderr.write(`${jsonText(line)}\n`) : printJson(line);
    else {
      const what = report.alreadyComplete
        ? `${flags.out} was already complete (${report.rows} rows)`
        : `Exported ${report.rows.toLocaleString('en')} rows to ${toStdout ? 'stdout' : flags.out} in ${duration(report.durationMs / 1000)}`;
      const resume = toStdout ? '' : ' Rerun the same command with --resume to continue.';
      (toStdout ? process.stderr : process.stdout).write(`${what}\n${report.interrupted ? `${red('Stopped early')}: interrupted.${resume}\n` : ''}`);
      // Excel opens a CSV without a byte-order mark in the legacy code page: Zoë becomes ZoÃ«.
      if (!flags.bom && flags.format === 'csv' && /\.csv$/i.test(flags.out) && !report.alreadyComplete) {
        process.stdout.write(dim(`  Opening it in Excel? Export with --bom so that accented and CJK names show right.\n`));
      }
    }
    if (report.interrupted) throw new ExitCode(EXIT.failure);
  } catch (error) {
    progress.stop();
    throw error;
  } finally {
    interrupt.dispose();
  }
}
