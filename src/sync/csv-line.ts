/**
 * Lines of the results files, byte for byte as csv-stringify wrote them with its defaults: fields
 * joined by commas, a field quoted only when it holds a comma, a quote or a line break (its quotes
 * doubled), each line ended by "\n". csv-stringify cost ~1 µs a row of succeeded.csv, most of it
 * walking options these files never use; this is a regular-expression test per field.
 * Spaces are kept as they are, unquoted: the import does not trim cells, so they read back the same.
 */
const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value);
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvLine(values: readonly (string | number)[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += i === 0 ? csvField(values[i]!) : `,${csvField(values[i]!)}`;
  return `${line}\n`;
}

export function csvLines(rows: readonly (readonly (string | number)[])[]): string {
  let text = '';
  for (const row of rows) text += csvLine(row);
  return text;
}
