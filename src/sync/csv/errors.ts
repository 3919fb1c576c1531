import { FIELDS_PER_ROW, formatSize } from './limits.js';
import type { SourceRow } from './source.js';

/** The file is not CSV that can be read without guessing: a quote out of place, or never closed. */
export class CsvSyntaxError extends Error {
  /** The rows the chunk completed before the fault: the file up to it reads fine. */
  rowsBefore: SourceRow[] = [];

  constructor(message: string) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

/**
 * A field or a row longer than its cap (limits.ts). Raised as soon as the text read so far
 * passes the cap, so a quote never closed (the rest of the file one field) costs one cap of
 * memory, not the file.
 */
export class CsvTooLongError extends CsvSyntaxError {
  constructor(
    readonly line: number,
    readonly limit: number,
    /** 1-based; absent when a whole row is too long. */
    readonly field?: number,
    readonly quoted = false,
  ) {
    super('');
    this.name = 'CsvTooLongError';
    this.message = this.describe();
  }

  /** The message again, with the field's column named after the file's header. */
  describe(header?: string[]): string {
    const raise = `raise the cap with --max-field-size (now ${formatSize(this.field ? this.limit : this.limit / FIELDS_PER_ROW)}; e.g. --max-field-size ${formatSize((this.field ? this.limit : this.limit / FIELDS_PER_ROW) * 4)})`;
    if (this.field === undefined) {
      return `The row on line ${this.line} is longer than ${this.limit.toLocaleString('en')} characters, the most a row may have (${FIELDS_PER_ROW} times --max-field-size). If it is meant to be that long, ${raise}.`;
    }
    const column = header?.[this.field - 1];
    const cause = this.quoted ? ' If not, the quote that opens it is probably never closed, which makes the rest of the file one field: fix the file.' : '';
    return `Field ${this.field}${column === undefined ? '' : ` (${JSON.stringify(column)})`} of the row on line ${this.line} is longer than ${this.limit.toLocaleString('en')} characters, the most a field may have. If it is meant to be that long, ${raise}.${cause}`;
  }
}
