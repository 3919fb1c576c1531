import { parse } from 'csv-parse';
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { Transform, pipeline } from 'node:stream';
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
  /** The data rows, after the header; iterate once. */
  rows: AsyncIterable<SourceRow>;
}

// WHATWG names: 'latin1' is windows-1252 there, a superset of ISO-8859-1 for printable text.
const DECODER_LABEL: Record<Encoding, string> = { utf8: 'utf-8', latin1: 'latin1', utf16le: 'utf-16le' };

export function openCsv(path: string, options: { encoding?: Encoding | undefined; delimiter?: string | undefined }): Promise<CsvSource> {
  const { size } = statSync(path);
  const head = readHead(path, 64 * 1024);
  const encoding = options.encoding ?? detectEncoding(head);
  const delimiter = options.delimiter && options.delimiter !== 'auto' ? unescapeDelimiter(options.delimiter) : sniffDelimiter(decodeHead(head, encoding));

  const file = createReadStream(path, { highWaterMark: 256 * 1024 });
  const parser = parse({ delimiter, relax_column_count: true, skip_empty_lines: true, info: true });
  pipeline(file, decoder(encoding), parser, () => {}); // errors surface through the parser's iterator
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<{ record: string[]; info: { lines: number; empty_lines: number } }>;

  let lastLine = 0;
  let lastEmpty = 0;
  const next = async (): Promise<SourceRow | undefined> => {
    const step = await records.next().catch((error: Error) => {
      if (error instanceof SyncUsageError) throw error;
      throw new Error(`Cannot read the CSV after line ${lastLine}: ${error.message}`);
    });
    if (step.done) return undefined;
    const { record, info } = step.value;
    // info.lines is the line a record ends on; it starts after the previous one and any skipped empty lines.
    const line = lastLine + 1 + (info.empty_lines - lastEmpty);
    lastLine = info.lines;
    lastEmpty = info.empty_lines;
    return { line, values: record };
  };

  return next().then((first) => {
    if (!first) throw new SyncUsageError(`${path} is empty: a CSV file with a header line is expected.`);
    return {
      header: first.values,
      delimiter,
      encoding,
      size,
      bytesRead: () => file.bytesRead,
      rows: {
        async *[Symbol.asyncIterator]() {
          for (let row = await next(); row; row = await next()) yield row;
        },
      },
    };
  });
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
