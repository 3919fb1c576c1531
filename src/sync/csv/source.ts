import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import { CsvParser, CsvSyntaxError, CsvTooLongError } from './parser.js';
import { SyncUsageError } from '../errors.js';
import { unescapeRow } from './formula-cells.js';

/**
 * Reading a CSV file as a stream of rows, so memory stays flat whatever the file's size: bytes are
 * decoded (UTF-8, Latin-1 or UTF-16LE, BOM detected), parsed by CsvParser (quoted fields may span
 * lines), and each row comes with the line it starts on, for the results files. A cell crm
 * escaped against spreadsheet formulas (`'=…`, formula-cells.ts) reads back as the text it stands
 * for, header included, unless `raw`. A row that cannot be read (malformed quoting, a field longer
 * than `maxFieldSize`) ends the rows there; `failure()` then says why.
 */
const ENCODINGS = ['utf8', 'latin1', 'utf16le'] as const;
export type Encoding = (typeof ENCODINGS)[number];
const DELIMITERS = [',', ';', '\t', '|'] as const;

export interface SourceRow {
  /** 1-based line of the file where the row starts (the header is line 1). */
  line: number;
  values: string[];
  /** A row that cannot be read (a JSON Lines line that is not JSON): it fails with this. */
  error?: { code: string; message: string };
}

export interface CsvSource {
  header: string[];
  delimiter: string;
  encoding: Encoding;
  size: number;
  /** Bytes read from the file so far (progress and ETA). */
  bytesRead(): number;
  /**
   * The data rows after the header, in runs of whatever the parser has ready: one await per run
   * instead of one per row, which cost more than parsing. Iterate once.
   */
  rows: AsyncIterable<SourceRow[]>;
  /**
   * Set once the rows have ended early, at a row that cannot be read: why. `resumable`: the same
   * file reads further with a higher --max-field-size (the row was only too long).
   */
  failure?(): { message: string; resumable: boolean } | undefined;
}

// WHATWG names: 'latin1' is windows-1252 there, a superset of ISO-8859-1 for printable text.
const DECODER_LABEL: Record<Encoding, string> = { utf8: 'utf-8', latin1: 'latin1', utf16le: 'utf-16le' };

export async function openCsv(
  path: string,
  options: { encoding?: Encoding | undefined; delimiter?: string | undefined; raw?: boolean | undefined; maxFieldSize?: number | undefined },
): Promise<CsvSource> {
  if (!existsSync(path) || !statSync(path).isFile()) throw new SyncUsageError(`${path}: no such file.`);
  const { size } = statSync(path);
  const head = readHead(path, 64 * 1024);
  const encoding = options.encoding ?? detectEncoding(head);
  const delimiter = options.delimiter && options.delimiter !== 'auto' ? unescapeDelimiter(options.delimiter) : sniffDelimiter(decodeHead(head, encoding));

  let bytesRead = 0;
  let failure: CsvSyntaxError | undefined;
  const parser = new CsvParser(delimiter, options.maxFieldSize);
  const runs = readRuns(
    path,
    decoder(encoding),
    parser,
    (bytes) => (bytesRead += bytes),
    options.raw !== true,
    (error) => (failure = error),
  );

  // The header is the first row that is not empty; rows of the same run after it are data.
  const first = await runs.next();
  if (first.done && failure) throw new Error(`Cannot read the CSV: ${failure.message}`);
  if (first.done) throw new SyncUsageError(`${path} has no header line: a CSV file with a header line is expected.`);
  const pending = first.value;
  const header = pending.shift()!.values;
  return {
    header,
    delimiter,
    encoding,
    size,
    bytesRead: () => bytesRead,
    failure: () =>
      failure && { message: failure instanceof CsvTooLongError ? failure.describe(header) : failure.message, resumable: failure instanceof CsvTooLongError },
    rows: {
      async *[Symbol.asyncIterator]() {
        if (pending.length) yield pending;
        yield* runs;
      },
    },
  };
}

/**
 * The file's data rows and header, one run per 64 KiB read (some 600 rows). Empty lines are
 * dropped here, after the parser has counted their lines. A row the parser refuses ends the runs
 * after the rows before it, and goes to `onFailure` once those have been taken (batches they
 * fill are sent like any other).
 *
 * The file is read with readSync into one reused buffer, and the event loop gets a turn after each
 * read (progress, answers of batches in flight): a read stream cost ~0.3 µs a row, in a fresh
 * buffer per read and a trip through libuv's thread pool per read, for a local file whose 64 KiB
 * take microseconds to read. Larger reads cost more than they save: all the rows of a read stay
 * in memory until their batches are answered.
 */
async function* readRuns(
  path: string,
  decode: (bytes?: Buffer) => string,
  parser: CsvParser,
  onRead: (bytes: number) => void,
  unescapeFormulas: boolean,
  onFailure: (error: CsvSyntaxError) => void,
): AsyncGenerator<SourceRow[]> {
  const notEmpty = (rows: SourceRow[]) => {
    const kept = rows.filter((row) => row.values.length !== 1 || row.values[0] !== '');
    if (unescapeFormulas) for (const row of kept) unescapeRow(row.values);
    return kept;
  };
  const buffer = Buffer.allocUnsafe(64 * 1024);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    for (;;) {
      const length = readSync(fd, buffer, 0, buffer.length, null);
      if (length === 0) break;
      onRead(length);
      const rows = notEmpty(parser.push(decode(buffer.subarray(0, length))));
      if (rows.length) yield rows;
      await setImmediate();
    }
    const rows = notEmpty([...parser.push(decode()), ...parser.end()]);
    if (rows.length) yield rows;
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw readError(error as Error);
    const rows = notEmpty(error.rowsBefore);
    if (rows.length) yield rows;
    onFailure(error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function readError(error: Error): Error {
  return error instanceof SyncUsageError ? error : new Error(`Cannot read the CSV: ${error.message}`);
}

function readHead(path: string, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    return buffer.subarray(0, readSync(fd, buffer, 0, length, 0));
  } finally {
    closeSync(fd);
  }
}

/** A byte-order mark says UTF-16LE or UTF-8; without one, UTF-8 (use --encoding for anything else). */
function detectEncoding(head: Buffer): Encoding {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  return 'utf8';
}

function decodeHead(head: Buffer, encoding: Encoding): string {
  return new TextDecoder(DECODER_LABEL[encoding]).decode(head, { stream: true });
}

/**
 * The delimiter of the header line: whichever of , ; tab | occurs most often outside quotes
 * (a comma when none does, i.e. a one-column file).
 */
export function sniffDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ',';
  for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
  return best;
}

/** --delimiter accepts the character itself, or `tab` / `\t` for a tab. */
function unescapeDelimiter(value: string): string {
  if (value === 'tab' || value === '\\t') return '\t';
  if (value.length !== 1 || value === '"' || value === '\r' || value === '\n')
    throw new SyncUsageError(`--delimiter must be one character other than a quote or a line break (or auto, tab); got "${value}".`);
  return value;
}

/**
 * Bytes to text, chunk by chunk (a character may be cut between two chunks); no argument: the end.
 * UTF-8 is decoded strictly: a Latin-1 file read as UTF-8 would otherwise import with U+FFFD where
 * its accents were, silently.
 */
function decoder(encoding: Encoding): (bytes?: Buffer) => string {
  const textDecoder = new TextDecoder(DECODER_LABEL[encoding], { fatal: encoding === 'utf8' });
  return (bytes) => {
    try {
      return bytes ? textDecoder.decode(bytes, { stream: true }) : textDecoder.decode();
    } catch {
      throw new SyncUsageError('The file is not valid UTF-8. Pass its encoding: --encoding latin1 (or utf16le).');
    }
  };
}
