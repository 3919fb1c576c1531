import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvParser } from '../../src/sync/csv/parser.js';
import { csvField, csvLine, csvLines } from '../../src/sync/csv/line.js';
import { unescapeRow } from '../../src/sync/csv/formula-cells.js';

const VALUES = [
  'plain',
  '',
  'a,b',
  'say "hi"',
  '"',
  'two\nlines',
  'cr\rhere',
  'crlf\r\nhere',
  ' leading',
  'trailing ',
  '  ',
  'tab\there',
  'semi;colon',
  'Zoë €',
  42,
  0,
  -1.5,
];

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

  it('escapes what a spreadsheet would run unless raw, quotes an escaped cell when CSV needs it, and never escapes a number', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('=1+1', true)).toBe('=1+1');
    expect(csvField('=SUM(1,2)')).toBe(`"'=SUM(1,2)"`);
    expect(csvField('\rx')).toBe(`"'\rx"`);
    expect(csvField(-3)).toBe('-3');
    expect(csvLine(['=a', '+b', 'c'])).toBe("'=a,'+b,c\n");
    expect(csvLine(['=a', '+b', 'c'], true)).toBe('=a,+b,c\n');
    expect(csvLines([['@x'], ['-1.5']])).toBe("'@x\n-1.5\n");
  });

  it('writes no cell a spreadsheet would run, and the import reads back every value written', () => {
    const triggers = ['=', '+', '-', '@', '\t', '\r', '\0', '＝', '＋', '－', '＠'];
    const text = fc.oneof(fc.string({ unit: fc.constantFrom(...triggers, "'", '1', '.', 'a', ',', '"', '\n'), maxLength: 8 }), fc.string({ unit: 'binary' }));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), (values) => {
        const parser = new CsvParser(',');
        const rows = [...parser.push(csvLine(values)), ...parser.end()];
        expect(rows).toHaveLength(1);
        for (const cell of rows[0]!.values) if (triggers.some((t) => cell.startsWith(t))) expect(cell).toMatch(/^-\d+(?:\.\d+)?(?:e[-+]\d+)?$/);
        expect(unescapeRow(rows[0]!.values)).toEqual(values);
      }),
      { numRuns: 5_000, seed: 23 },
    );
  });
});
