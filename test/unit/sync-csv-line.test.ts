import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { CsvParser } from '../../src/sync/csv-parser.js';
import { csvField, csvLine, csvLines } from '../../src/sync/csv-line.js';

const VALUES = ['plain', '', 'a,b', 'say "hi"', '"', 'two\nlines', 'cr\rhere', 'crlf\r\nhere', ' leading', 'trailing ', '  ', 'tab\there', 'semi;colon', 'Zoë €', 42, 0, -1.5];

describe('results file lines', () => {
  it('quotes a field only for a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('')).toBe('');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(' spaces ')).toBe(' spaces '); // the import does not trim: no need to quote
    expect(csvField(7)).toBe('7');
    expect(csvLine(['a', 'b c', 3])).toBe('a,b c,3\n');
  });

  it('writes exactly what csv-stringify wrote, so results files read the same as before', () => {
    const rows = VALUES.map((value, i) => [i, value, 'x']);
    expect(csvLines(rows)).toBe(stringify(rows));
    expect(csvLine(VALUES)).toBe(stringify([VALUES]));
    expect(csvLine([''])).toBe(stringify([['']]));
  });

  it('reads back cell for cell', () => {
    const parser = new CsvParser(',');
    const rows = [...parser.push(csvLines([VALUES, ['end']])), ...parser.end()];
    expect(rows.map((r) => r.values)).toEqual([VALUES.map(String), ['end']]);
  });
});
