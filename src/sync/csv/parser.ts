import { CsvSyntaxError, CsvTooLongError } from './errors.js';
import { DEFAULT_MAX_FIELD_SIZE, FIELDS_PER_ROW } from './limits.js';
import type { SourceRow } from './source.js';

export { CsvSyntaxError, CsvTooLongError };

const QUOTE = '"';

/**
 * CSV text to rows, fed chunk by chunk (RFC 4180: fields quoted with `"`, `""` for a quote inside
 * one, quoted fields may span lines). Written for the import's hot path: csv-parse cost ~9 µs a
 * row of a 12-column file, walking every byte in JavaScript and building each field in a buffer,
 * when almost every row of a real file has no quote at all. Such a row costs one indexOf for its
 * end and one per field. Rows with quotes take the careful path, which follows csv-parse's rules
 * (as the import used it: no trimming, any number of columns per row):
 *   - the record delimiter is the first line break outside quotes (CRLF, LF or CR), and only it
 *     ends a record from then on;
 *   - a quote opens a field only as its first character; a quote inside an unquoted field, a
 *     character other than the delimiter after a closing quote, and a quote still open at the end
 *     of the file are errors: the file is malformed, and guessing would import wrong data;
 *   - an empty line is a row of one empty field; the last row need not end with a line break.
 * Each row comes with the line it starts on: line breaks (CRLF, CR or LF) inside quoted fields
 * count, like an editor counts them.
 *
 * Linear in the text whatever its rows: a row longer than the chunk is kept as the pieces read so
 * far, each scanned once, and joined when its end comes. (It used to be re-joined with every
 * chunk: one quote never closed took 15 s at 50 MB, 25 min at 500 MB.) A field longer than
 * maxFieldSize, or a row longer than FIELDS_PER_ROW times it, is refused (CsvTooLongError) as soon
 * as that much of it has been read.
 */
export class CsvParser {
  /** The text after the last complete row, or after `head`: the rest of the row read so far. */
  private rest = '';
  /** How far into `rest` the end of its row was looked for, and whether that point is inside quotes. */
  private scanned = 0;
  private inQuotes = false;
  /** The start of a row that began in an earlier chunk, scanned already: its pieces, joined at its end. */
  private head: string[] = [];
  private headLength = 0;
  /** Where the quoted field being read began, counted from the start of its row. */
  private fieldStart = 0;
  private newline: string | undefined;
  private line = 1;
  private readonly maxRow: number;

  constructor(
    private readonly delimiter: string,
    private readonly maxField = DEFAULT_MAX_FIELD_SIZE,
  ) {
    if (delimiter.length !== 1 || delimiter === QUOTE || delimiter === '\r' || delimiter === '\n') {
      throw new Error(`A CSV delimiter is one character other than a quote or a line break; got ${JSON.stringify(delimiter)}.`);
    }
    this.maxRow = maxField * FIELDS_PER_ROW;
  }

  /** The rows this text completes; an unfinished row waits for the next chunk. */
  push(text: string): SourceRow[] {
    return this.rows(this.rest + text, false);
  }

  /** The end of the file: its last row, if it had no line break after it. */
  end(): SourceRow[] {
    return this.rows(this.rest, true);
  }

  private rows(text: string, final: boolean): SourceRow[] {
    const rows: SourceRow[] = [];
    try {
      // Apart from the row loop (read), which must stay small enough for V8 to inline what it calls.
      const start = this.head.length ? this.finishHead(text, final, rows) : 0;
      if (start !== -1) this.keepRest(text, this.read(text, start, final, rows));
    } catch (error) {
      if (error instanceof CsvSyntaxError) error.rowsBefore = rows;
      throw error;
    }
    return rows;
  }

  /** The rows of text from start on; where the rest, an unfinished row, starts. */
  private read(text: string, start: number, final: boolean, rows: SourceRow[]): number {
    const maxField = this.maxField;
    while (start < text.length) {
      // The common row: no quote before the next line break, which therefore ends it.
      let end = this.newline !== undefined && this.scanned === 0 ? text.indexOf(this.newline, start) : -1;
      let row = end === -1 ? undefined : text.slice(start, end);
      if (row === undefined || row.includes(QUOTE)) {
        // A line break inside quotes does not end the row; or the row's end is not in this text yet.
        end = this.scanRowEnd(text, start, final);
        if (end === -1) break;
        row = text.slice(start, end);
      }
      const values = row.includes(QUOTE) ? splitQuoted(row, this.delimiter, this.line) : splitPlain(text, start, end, this.delimiter);
      // Only a row longer than a field can hold a field too long: one comparison for the others.
      if (row.length > maxField) this.checkLengths(row, values);
      rows.push({ line: this.line, values });
      this.line += 1 + lineBreaks(row);
      start = end === text.length ? end : end + this.newline!.length;
    }
    return start;
  }

  /**
   * The row begun in earlier chunks, if this text ends it: its pieces joined once. Where the next
   * row starts in the text, or -1 when the row goes on past it.
   */
  private finishHead(text: string, final: boolean, rows: SourceRow[]): number {
    const end = this.scanRowEnd(text, 0, final);
    if (end === -1) {
      this.keepRest(text, 0);
      return -1;
    }
    const row = this.head.join('') + text.slice(0, end);
    this.head = [];
    this.headLength = 0;
    const values = row.includes(QUOTE) ? splitQuoted(row, this.delimiter, this.line) : splitPlain(row, 0, row.length, this.delimiter);
    if (row.length > this.maxField) this.checkLengths(row, values);
    rows.push({ line: this.line, values });
    this.line += 1 + lineBreaks(row);
    return end === text.length ? end : end + this.newline!.length;
  }

  /**
   * What is left of the text is the start of a row: the part scanned goes into `head`, bar its
   * last character (which the rest of the scan may need to see: a quote before a field, the CR of
   * a CRLF), so the next chunk is joined to a few characters, never to the whole row.
   */
  private keepRest(text: string, start: number): void {
    const keep = start + this.scanned - 1;
    if (keep > start) {
      this.head.push(text.slice(start, keep));
      this.headLength += keep - start;
      this.rest = text.slice(keep);
      this.scanned = 1;
    } else this.rest = text.slice(start);
    const read = this.headLength + this.rest.length;
    if (this.inQuotes && read - this.fieldStart > this.maxField) throw new CsvTooLongError(this.line, this.maxField, this.fieldNumber(), true);
    if (read > this.maxRow) throw new CsvTooLongError(this.line, this.maxRow);
  }

  /** The number of the quoted field being read: the fields before its opening quote, plus one. */
  private fieldNumber(): number {
    const before = (this.head.join('') + this.rest).slice(0, this.fieldStart);
    return before === '' ? 1 : splitQuoted(before, this.delimiter, this.line).length;
  }

  /** A complete row longer than one field may be: is it, or one of its fields, too long? */
  private checkLengths(row: string, values: string[]): void {
    if (row.length > this.maxRow) throw new CsvTooLongError(this.line, this.maxRow);
    const lengths = row.includes(QUOTE) ? writtenLengths(row, this.delimiter) : values.map((value) => value.length);
    const field = lengths.findIndex((length) => length > this.maxField);
    if (field === -1) return;
    const fieldStart = lengths.slice(0, field).reduce((sum, length) => sum + length + 1, 0);
    throw new CsvTooLongError(this.line, this.maxField, field + 1, row[fieldStart] === QUOTE);
  }

  /**
   * The row's end found past its quotes: a line break counts only outside them. Resumes where the
   * last chunk left off, so a long quoted field is not rescanned with every chunk. A quote that
   * does not start a field is refused here, at once: taken as an opening quote, it would make the
   * rest of the file one field, read into memory before the error.
   */
  private scanRowEnd(text: string, start: number, final: boolean): number {
    let at = start + this.scanned;
    let quoted = this.inQuotes;
    let opened = -1; // the opening quote of the last quoted field begun in this text
    for (;;) {
      if (quoted) {
        const close = text.indexOf(QUOTE, at);
        if (close === -1) {
          at = text.length;
          break;
        }
        if (close === text.length - 1 && !final) {
          at = close; // a closing quote, or the first of "": the next chunk tells
          break;
        }
        if (text[close + 1] === QUOTE) at = close + 2;
        else {
          quoted = false;
          at = close + 1;
        }
        continue;
      }
      const quote = text.indexOf(QUOTE, at);
      const end = this.lineBreak(text, at, quote === -1 ? text.length : quote, final);
      if (end !== -1) {
        this.scanned = 0;
        this.inQuotes = false;
        return end;
      }
      if (quote === -1) {
        at = Math.max(at, text.length - 1); // the last character may be the CR of a CRLF cut in two
        break;
      }
      if (quote !== start && text[quote - 1] !== this.delimiter) this.refuseStrayQuote(text.slice(start, quote + 1));
      quoted = true;
      opened = quote;
      at = quote + 1;
    }
    if (final) {
      if (quoted) throw new CsvSyntaxError(`A quoted field of the row on line ${this.line} is never closed: the file ends inside it.`);
      this.scanned = 0;
      return text.length;
    }
    this.scanned = at - start;
    this.inQuotes = quoted;
    if (quoted && opened !== -1) this.fieldStart = this.headLength + opened - start;
    return -1;
  }

  /** A row that has a quote where no field starts; splitQuoted names the field and the fault. */
  private refuseStrayQuote(textSoFar: string): never {
    splitQuoted(this.head.join('') + textSoFar, this.delimiter, this.line);
    throw new CsvSyntaxError(`The row on line ${this.line} has a quote inside an unquoted field.`);
  }

  /**
   * The first record delimiter in text[from, before), or -1. Until one has been seen, any line
   * break is one, and the first one sets it.
   */
  private lineBreak(text: string, from: number, before: number, final: boolean): number {
    if (this.newline !== undefined) {
      const end = text.indexOf(this.newline, from);
      return end < before ? end : -1;
    }
    let end = from;
    while (end < before && text[end] !== '\n' && text[end] !== '\r') end++;
    if (end === before) return -1;
    if (text[end] === '\r' && end === text.length - 1 && !final) return -1; // CR or CRLF: the next chunk tells
    this.newline = text[end] === '\n' ? '\n' : text[end + 1] === '\n' ? '\r\n' : '\r';
    return end;
  }
}

/**
 * The fields of text[start, end), a row without quotes. Sliced from the chunk's text rather than
 * row.split(): split() cost twice as much (~0.6 µs a row of 12 fields), on a row that is itself
 * a slice of the chunk.
 */
function splitPlain(text: string, start: number, end: number, delimiter: string): string[] {
  const values: string[] = [];
  for (let at = start; ; ) {
    const next = text.indexOf(delimiter, at);
    if (next === -1 || next >= end) {
      values.push(text.slice(at, end));
      return values;
    }
    values.push(text.slice(at, next));
    at = next + 1;
  }
}

/** The fields of a row with quotes in it. */
function splitQuoted(row: string, delimiter: string, line: number): string[] {
  const values: string[] = [];
  let at = 0;
  for (;;) {
    let next: number;
    if (row[at] === QUOTE) {
      let value = '';
      let from = at + 1;
      for (;;) {
        const quote = row.indexOf(QUOTE, from);
        if (quote === -1) throw new CsvSyntaxError(`A quoted field of the row on line ${line} is never closed: the file ends inside it.`);
        value += row.slice(from, quote);
        if (row[quote + 1] !== QUOTE) {
          next = quote + 1;
          break;
        }
        value += QUOTE;
        from = quote + 2;
      }
      values.push(value);
      if (next < row.length && row[next] !== delimiter) {
        throw new CsvSyntaxError(
          `Field ${values.length} of the row on line ${line} has ${JSON.stringify(row[next])} after its closing quote; a quote inside a quoted field is written "".`,
        );
      }
    } else {
      next = row.indexOf(delimiter, at);
      if (next === -1) next = row.length;
      const value = row.slice(at, next);
      if (value.includes(QUOTE)) {
        throw new CsvSyntaxError(
          `Field ${values.length + 1} of the row on line ${line} has a quote inside it: quote the whole field, and write each quote in it as "".`,
        );
      }
      values.push(value);
    }
    if (next >= row.length) return values;
    at = next + 1;
  }
}

/**
 * The length of each field of a row as written, quotes included: what the cap counts. Only for a
 * row longer than a field may be, so that splitQuoted, on every quoted row, does not pay for it.
 * The row was split already: its quoting is sound.
 */
function writtenLengths(row: string, delimiter: string): number[] {
  const lengths: number[] = [];
  for (let at = 0; ; ) {
    let end = at;
    if (row[at] === QUOTE) {
      end = row.indexOf(QUOTE, at + 1);
      while (row[end + 1] === QUOTE) end = row.indexOf(QUOTE, end + 2);
      end++;
    } else {
      end = row.indexOf(delimiter, at);
      if (end === -1) end = row.length;
    }
    lengths.push(end - at);
    if (end >= row.length) return lengths;
    at = end + 1;
  }
}

/** Line breaks inside a row: CRLF, CR or LF each start one more line of the file. */
function lineBreaks(row: string): number {
  if (!row.includes('\n') && !row.includes('\r')) return 0;
  let count = 0;
  for (let i = 0; i < row.length; i++) {
    const c = row.charCodeAt(i);
    if (c === 10 || (c === 13 && row.charCodeAt(i + 1) !== 10)) count++;
  }
  return count;
}
