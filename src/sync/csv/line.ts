import { escapeFormula } from './formula-cells.js';

/**
 * Lines of the CSV files crm writes (exports, results files, plan.csv): fields joined by commas, a
 * field quoted only when it holds a comma, a quote or a line break (its quotes doubled), each
 * line ended by "\n" — byte for byte what csv-stringify wrote with its defaults. csv-stringify
 * cost ~1 µs a row of succeeded.csv, most of it walking options these files never use; this is a
 * regular-expression test per field.
 * Text that a spreadsheet would run as a formula gets a leading `'` (formula-cells.ts) unless
 * `raw`; numbers never need it. Spaces are kept as they are, unquoted: the import does not trim
 * cells, so they read back the same.
 */
const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string | number, raw = false): string {
  if (typeof value === 'number') return String(value);
  const text = raw ? value : escapeFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly (string | number)[], raw = false): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += i === 0 ? csvField(values[i]!, raw) : `,${csvField(values[i]!, raw)}`;
  return `${line}\n`;
}

export function csvLines(rows: readonly (readonly (string | number)[])[], raw = false): string {
  let text = '';
  for (const row of rows) text += csvLine(row, raw);
  return text;
}

/**
 * The UTF-8 byte-order mark that `--bom` puts first in a CSV file: without it Excel reads a CSV as
 * the machine's legacy code page and garbles accented and CJK names (Zoë → ZoÃ«). Only at the start
 * of a new file, never on --resume; `crm sync import` skips it when reading.
 */
export const UTF8_BOM = '\uFEFF';
