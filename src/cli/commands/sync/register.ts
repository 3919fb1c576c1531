import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import { BULK_MAX_RECORDS } from '../../../domain/bulk-limits.js';
import { DEFAULT_MAX_FIELD_SIZE, FIELDS_PER_ROW, formatSize, parseSize } from '../../../sync/csv/limits.js';
import { wholeNumber } from '../../arg-parsers.js';
import { lazyActions, subcommand } from '../../command-definition.js';
import { sinceArg } from '../../since.js';
import { examples } from '../../help.js';
import type { CopyFlags } from './copy.js';

/** --since of a copy: a time, or `last` (the start of the last complete copy between the same ends). */
const copySince = (value: string): string => (value.trim() === 'last' ? 'last' : sinceArg(value));

/**
 * `crm sync import|export` (docs/sync.md). Definitions only; the code is imported when a command
 * runs, so --help stays fast.
 */
const collect = (value: string, all: string[]): string[] => [...all, value];

function fieldSize(value: string): number {
  const size = parseSize(value);
  if (size === undefined) throw new InvalidArgumentError('Expected a number of characters, or with K or M (1K = 1024, 1M = 1024K), from 1 to 100M: e.g. 4M.');
  return size;
}

const resource = () => new Argument('<resource>', 'leads or clients').choices(['leads', 'clients']);
const runSync = lazyActions(() => import('./sync.js'));
const runCopy = lazyActions(() => import('./copy.js'));

export function registerSyncCommands(program: Command): void {
  const sync = subcommand(
    program,
    'sync',
    'Bulk import and export of leads and clients as CSV, and copies between servers',
    examples([['crm sync import leads leads.csv'], ['crm sync export clients --out clients.csv'], ['crm sync copy --from prod --to sandbox']]),
  );

  subcommand(
    sync,
    'import',
    'Create or update records from a CSV file, in bulk batches',
    `
Columns match the API's field names, ignoring case, spaces, underscores and dashes ("First Name"
is first_name). custom.<name> columns are custom fields; clients take address.<field> and one
primary contact person as contact.first_name, contact.last_name, contact.email, contact.phone,
contact.role. An id column (as exported) updates that record. Empty cells clear a field.
--plan writes plan.csv (line, status, id, field, from, to; one line per changed field) into the
results folder (default FILE.plan) and changes nothing; run again without --plan to import.
A column may also fill a custom field: its key, its label or custom.<key>; cells are read by the
field's type (multi_select values separated by ;). A column that fills no field stops the import
before anything is written: --create-fields defines a field for each (with --plan: shows them),
--ignore-unknown leaves them out.
A cell crm escaped against spreadsheet formulas reads back as its text ('=1+1 is =1+1, ''=x is '=x),
and the results files escape cells as the export does; --raw turns both off (import a --raw export
with --raw).
A row that cannot be read (a quote never closed, a field longer than --max-field-size) stops the
import there: the batches before it are imported, the rows after the last of them are not sent
(unprocessed.csv), nothing after it is read.
Exit: 0 all rows imported, 1 some rows failed or were not sent, 2 usage error.
${examples([
  ['crm sync import leads leads.csv', 'upsert on external_id; a rerun never duplicates'],
  ['crm sync import leads leads.csv --plan', 'what would change; nothing is written'],
  ['crm sync import clients hubspot.csv --from hubspot'],
  ['crm sync import leads contacts.csv --from hubspot --create-fields --plan', 'the fields it would define, and their types'],
  ['crm sync import leads leads.csv --resume', 'after an interruption'],
  ['crm sync import leads notes.csv --max-field-size 4M --resume', 'after a field longer than 1M stopped it'],
  ['cat leads.jsonl | crm sync import leads -', 'JSON Lines on stdin'],
])}`,
  )
    .addArgument(resource())
    .argument('<file>', 'a CSV file, a .jsonl file (one JSON record per line), or - for stdin')
    .addOption(
      new Option('--mode <mode>', 'upsert: update matching records, create the rest; create: always create').choices(['upsert', 'create']).default('upsert'),
    )
    .addOption(new Option('--match-on <field>', 'how upsert finds existing records').choices(['external_id', 'email']).default('external_id'))
    .option('--map <pairs>', 'column mapping, "CSV Column=field,Other=custom.name,Unwanted="')
    .option('--batch-size <n>', `records per request (1..${BULK_MAX_RECORDS})`, wholeNumber(1, BULK_MAX_RECORDS), 500)
    .option('--concurrency <n>', 'requests in flight', wholeNumber(1, 32), 4)
    .option('--dry-run', 'validate only: nothing is sent', false)
    .addOption(
      new Option('--from <product>', "read that product's own export: its columns and values mapped onto ours").choices(['hubspot', 'salesforce', 'pipedrive']),
    )
    .option('--plan', 'ask the server what the import would do (a bulk dry run: nothing is written); writes plan.csv', false)
    .option('--create-fields', 'define a custom field for each column that fills none, its type read from the file (a first pass over it)', false)
    .option('--ignore-unknown', 'leave out the columns that fill no field (they are named)', false)
    .option('--resume', 'continue an interrupted import from its journal (same file and options)', false)
    .option('--results <dir>', 'results folder (default: FILE.results, or FILE.dry-run)')
    .option('--delimiter <char>', 'auto, or one of , ; | tab', 'auto')
    .addOption(new Option('--encoding <encoding>', 'the file encoding (a UTF-8 or UTF-16LE BOM is detected)').choices(['utf8', 'latin1', 'utf16le']))
    .addOption(
      new Option(
        '--max-field-size <size>',
        `the most characters a CSV field may have (a row: ${FIELDS_PER_ROW} times that); a longer one stops the import there. A number, or with K or M (1M = 1,048,576)`,
      )
        .argParser(fieldSize)
        .default(DEFAULT_MAX_FIELD_SIZE, formatSize(DEFAULT_MAX_FIELD_SIZE)),
    )
    .option('--retries <n>', 'retries of a failing request before the import stops', wholeNumber(0, 20), 6)
    .option('--raw', "cells as they are: keep a leading ' and write the results files unescaped", false)
    .option('--bom', 'start the results files (failed.csv, …) with a UTF-8 byte-order mark, so that Excel shows accented and CJK names right', false)
    .action(
      runSync((m, g, res: 'leads' | 'clients', file: string, opts: Record<string, unknown>) =>
        m.importCommand(g, {
          resource: res,
          file,
          mode: opts.mode as 'upsert' | 'create',
          matchOn: opts.matchOn as 'external_id' | 'email',
          map: opts.map as string | undefined,
          batchSize: opts.batchSize as number,
          concurrency: opts.concurrency as number,
          dryRun: opts.dryRun as boolean,
          plan: opts.plan as boolean,
          from: opts.from as 'hubspot' | 'salesforce' | 'pipedrive' | undefined,
          resume: opts.resume as boolean,
          results: opts.results as string | undefined,
          delimiter: opts.delimiter as string,
          encoding: opts.encoding as 'utf8' | 'latin1' | 'utf16le' | undefined,
          maxFieldSize: opts.maxFieldSize as number,
          retries: opts.retries as number,
          raw: opts.raw as boolean,
          bom: opts.bom as boolean,
          createFields: opts.createFields as boolean,
          ignoreUnknown: opts.ignoreUnknown as boolean,
        }),
      ),
    );

  subcommand(
    sync,
    'export',
    'Write every record as CSV, page by page',
    `
Cells a spreadsheet would run as a formula (starting with = + - @, tab or CR, or their full-width
forms) are written with a leading ' so that Excel, LibreOffice and Google Sheets show them as text;
plain negative numbers (-12.5) are left as they are. crm sync import reads them back to the
original text. --raw writes every cell as it is: only for a program that reads the file, never for
a file someone will open in a spreadsheet. --format jsonl is never escaped (not for spreadsheets).

Examples:
  $ crm sync export leads --out leads.csv            # safe to open in a spreadsheet
  $ crm sync export leads --out leads.csv --bom      # for Excel: names like Zoë and 山田 read right
  $ crm sync import leads leads.csv                  # '=x cells read back as =x
  $ crm sync export leads --out raw.csv --raw        # cells exactly as stored
  $ crm sync import leads raw.csv --raw              # a --raw file imports with --raw`,
  )
    .addArgument(resource())
    .option('--out <file>', 'the CSV file, or - for stdout', '-')
    .option('--fields <list>', 'columns to write, comma-separated (default: all)')
    .addOption(new Option('--format <format>', 'csv, or jsonl: one JSON record per line (default: from --out, else csv)').choices(['csv', 'jsonl']))
    .option('--since <time>', 'only records updated after this time (RFC 3339, or 30m, 1h, 7d ago)', sinceArg)
    .option('--resume', 'continue an interrupted export into the same --out file', false)
    .option('--retries <n>', 'retries of a failing request before the export stops', wholeNumber(0, 20), 6)
    .option('--raw', 'write cells as they are, even those a spreadsheet would run as formulas (=, +, -, @, tab, CR)', false)
    .option('--bom', 'start the CSV with a UTF-8 byte-order mark, so that Excel shows accented and CJK names right', false)
    .action(
      runSync(
        (
          m,
          g,
          res: 'leads' | 'clients',
          opts: { out: string; fields?: string; since?: string; resume: boolean; retries: number; format?: 'csv' | 'jsonl'; raw: boolean; bom: boolean },
        ) =>
          m.exportCommand(g, {
            resource: res,
            out: opts.out,
            fields: opts.fields
              ?.split(',')
              .map((f) => f.trim())
              .filter(Boolean),
            since: opts.since,
            resume: opts.resume,
            format: opts.format ?? (/\.(jsonl|ndjson)$/i.test(opts.out) ? 'jsonl' : 'csv'),
            retries: opts.retries,
            raw: opts.raw,
            bom: opts.bom,
          }),
      ),
    );

  subcommand(
    sync,
    'copy',
    "Copy one server's clients, leads, deals and invoices into another (a sandbox), masked, incrementally",
    `
Clients (with their contact persons) go first, then leads, deals and invoices, so every reference
lands; each target record has external_id = its source record's id, so a rerun updates in place and
reports unchanged. A subset (--where, --limit, --sample) brings what its records refer to (a deal
its client). Masking replaces names, emails, phones, addresses, notes, titles, websites and text
custom fields by fakes of the same kind and locale, the same fake for the same value everywhere
(HMAC with the key in --mask-key-file, which never leaves this machine). Invoices keep their state
(draft, open, paid, void); a sandbox "mails" only its own mailbox. The target sandbox's webhook
deliveries are paused while copying (needs its admin key) unless --with-webhooks.
Results: <dir>/<resource>/succeeded.csv and failed.csv, journal.jsonl (--resume), state.json (--since last).
Exit: 0 every record copied, 1 some failed or the copy stopped (--resume goes on), 2 usage error.
${examples([
  ['crm login --base-url https://crm.example.com --api-key crm_live_… --profile prod'],
  ['crm sandbox start --no-seed &'],
  ['crm sync copy --from prod --to sandbox --plan', 'counts only; nothing is written'],
  ['crm sync copy --from prod --to sandbox', 'masked: the target is a sandbox'],
  ['crm sync copy --from prod --to sandbox --since last', 'what changed since the last copy'],
  ['crm sync copy --from prod --to sandbox --sample 10% --where "leads:status=qualified"'],
  ['crm sync copy --from prod --to sandbox --mask rules.json --prune --json'],
])}`,
  )
    .requiredOption('--from <profile|url>', 'the source: a profile (crm login --profile NAME), sandbox, or a URL')
    .requiredOption('--to <profile|url>', 'the target: a profile, sandbox (.crm/sandbox.json here), or a URL')
    .option('--from-api-key <key>', "the source's key when --from is a URL (or CRM_FROM_API_KEY)")
    .option('--to-api-key <key>', "the target's key when --to is a URL (or CRM_TO_API_KEY)")
    .option('--resources <list>', 'what to copy, comma-separated', 'clients,leads,deals,invoices')
    .option('--where <filter>', 'resource:field=value (a list filter of the source), e.g. "leads:status=qualified"; repeatable', collect, [])
    .option('--limit <n>', 'only the N most recently updated records of each resource (and what they refer to)', wholeNumber(1, 10_000_000))
    .option('--sample <share>', 'a stable share of each resource, e.g. 10% (and what it refers to)')
    .option('--since <time>', 'only records updated after it: 30m, 1h, 7d, an RFC 3339 time, or last (since the last complete copy)', copySince)
    .option('--mask <how>', 'default, none, or a rules FILE.json (default: on when the target is a sandbox and the source is not)')
    .option('--mask-key-file <file>', 'the masking key (made once, 0600; default ~/.config/crm/mask.key)')
    .option('--plan', 'count what would be created, updated, left unchanged and pruned, per resource; writes nothing', false)
    .option('--resume', 'continue a copy that was interrupted (same ends and options)', false)
    .option('--prune', 'delete in the target what was deleted in the source (reported either way)', false)
    .option('--with-webhooks', "leave the target's webhook deliveries on during the copy", false)
    .option('--results <dir>', 'results folder (default .crm/copy/FROM-to-TO)')
    .option('--batch-size <n>', `records per bulk request (1..${BULK_MAX_RECORDS})`, wholeNumber(1, BULK_MAX_RECORDS), 500)
    .option('--concurrency <n>', 'requests in flight', wholeNumber(1, 32), 4)
    .option('--retries <n>', 'retries of a failing request before the copy stops', wholeNumber(0, 20), 6)
    .action(runCopy((m, g, opts: Record<string, unknown>) => m.copyCommand(g, opts as unknown as CopyFlags)));
}
