import { parse } from 'csv-parse';
import { closeSync, createReadStream, existsSync, openSync, readSync, statSync } from 'node:fs';
import { Transform, pipeline, type Readable } from 'node:stream';
import { SyncUsageError } from './errors.js';

/**
 * Reading a CSV file as a stream of rows, so memory stays flat whatever the file's size: bytes are
 * decoded (UTF-8, Latin-1 or UTF-16LE, BOM detected), parsed by csv-parse (quoted fields may span
 * lines), and each row comes with the line it starts on, for the results files.
 */
export const ENCODINGS = ['utf8', 'latin1', 'utf16le'] as const;
export type Encoding = (typeof ENCODINGS)[number];
export const DELIMITERS = [',', ';', '\t', '|'] as const;

export interface SourceRow {
  /** 1-based line of the file where the row starts (the header is line 1). */
  line: number;
  values: string[];
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
}

// WHATWG names: 'latin1' is windows-1252 there, a superset of ISO-8859-1 for printable text.
const DECODER_LABEL: Record<Encoding, string> = { utf8: 'utf-8', latin1: 'latin1', utf16le: 'utf-16le' };

export async function openCsv(path: string, options: { encoding?: Encoding | undefined; delimiter?: string | undefined }): Promise<CsvSource> {
  if (!existsSync(path) || !statSync(path).isFile()) throw new SyncUsageError(`${path}: no such file.`);
  const { size } = statSync(path);
  const head = readHead(path, 64 * 1024);
  const encoding = options.encoding ?? detectEncoding(head);
  const delimiter = options.delimiter && options.delimiter !== 'auto' ? unescapeDelimiter(options.delimiter) : sniffDelimiter(decodeHead(head, encoding));

  const file = createReadStream(path, { highWaterMark: 64 * 1024 });
  // Empty lines are kept (as ['']) and skipped below, so that line numbers can be counted here:
  // csv-parse's own count (info) is slow, and counts a CRLF inside quotes as two lines.
  const parser = parse({ delimiter, relax_column_count: true, skip_empty_lines: false });
  pipeline(file, decoder(encoding), parser, () => {}); // errors surface from the parser (drain below)

  let nextLine = 1;
  const runs = drain(parser);
  const lineUp = (records: string[][]): SourceRow[] => {
    const rows: SourceRow[] = [];
    for (const values of records) {
      const line = nextLine;
      nextLine += 1 + lineBreaks(values);
      if (values.length !== 1 || values[0] !== '') rows.push({ line, values });
    }
    return rows;
  };

  // The header is the first row that is not empty; rows of the same run after it are data.
  let pending: SourceRow[] = [];
  for (;;) {
    const run = await runs.next();
    if (run.done) throw new SyncUsageError(`${path} has no header line: a CSV file with a header line is expected.`);
    pending = lineUp(run.value);
    if (pending.length) break;
  }
  const header = pending.shift()!.values;
  return {
    header,
    delimiter,
    encoding,
    size,
    bytesRead: () => file.bytesRead,
    rows: {
      async *[Symbol.asyncIterator]() {
        if (pending.length) yield pending;
        for await (const records of runs) {
          const rows = lineUp(records);
          if (rows.length) yield rows;
        }
      },
    },
  };
}

/** Line breaks inside a row's (quoted) values: CRLF, CR or LF each start one more line of the file. */
function lineBreaks(values: string[]): number {
  let count = 0;
  for (const value of values) {
    if (!value.includes('\n') && !value.includes('\r')) continue;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c === 10 || (c === 13 && value.charCodeAt(i + 1) !== 10)) count++;
    }
  }
  return count;
}

/** Every record the parser has ready, as one array; waits for more only when it has none. */
async function* drain(parser: Readable): AsyncGenerator<string[][]> {
  for (;;) {
    const records: string[][] = [];
    for (let record = parser.read() as string[] | null; record !== null; record = parser.read() as string[] | null) records.push(record);
    if (records.length) {
      yield records;
      continue;
    }
    if (parser.errored) throw readError(parser.errored);
    if (parser.readableEnded || parser.destroyed) return;
    await new Promise<void>((resolve) => {
      const wake = () => {
        for (const event of ['readable', 'end', 'close', 'error']) parser.off(event, wake);
        resolve();
      };
      for (const event of ['readable', 'end', 'close', 'error']) parser.on(event, wake);
    });
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
export function detectEncoding(head: Buffer): Encoding {
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
  if (value.length !== 1) throw new SyncUsageError(`--delimiter must be one character (or auto, tab); got "${value}".`);
  return value;
}

/**
 * Bytes to text. UTF-8 is decoded strictly: a Latin-1 file read as UTF-8 would otherwise import
 * with U+FFFD where its accents were, silently.
 */
function decoder(encoding: Encoding): Transform {
  const textDecoder = new TextDecoder(DECODER_LABEL[encoding], { fatal: encoding === 'utf8' });
  const decode = (chunk?: Buffer) => {
    try {
      return chunk ? textDecoder.decode(chunk, { stream: true }) : textDecoder.decode();
    } catch {
      throw new SyncUsageError('The file is not valid UTF-8. Pass its encoding: --encoding latin1 (or utf16le).');
    }
  };
  return new Transform({
    readableObjectMode: false,
    decodeStrings: true,
    transform(chunk: Buffer, _encoding, done) {
      try {
        done(null, decode(chunk));
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        done(null, decode());
      } catch (error) {
        done(error as Error);
      }
    },
  });
}
