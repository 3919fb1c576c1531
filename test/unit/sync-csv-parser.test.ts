import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvParser, CsvSyntaxError } from '../../src/sync/csv/parser.js';
import type { SourceRow } from '../../src/sync/csv/source.js';

/** Parses `text` fed in the pieces `cuts` (offsets) make of it. */
function parseIn(text: string, cuts: number[] = [], delimiter = ','): SourceRow[] {
  const parser = new CsvParser(delimiter);
  const rows: SourceRow[] = [];
  let at = 0;
  for (const cut of cuts) {
    rows.push(...parser.push(text.slice(at, cut)));
    at = cut;
  }
  rows.push(...parser.push(text.slice(at)), ...parser.end());
  return rows;
}

const table = (rows: SourceRow[]) => rows.map((r) => [r.line, ...r.values]);

/** Every way of cutting `text` in two gives the same rows as reading it whole. */
function expectSameInEveryCut(text: string): void {
  const whole = parseIn(text);
  for (let cut = 1; cut < text.length; cut++) expect(parseIn(text, [cut]), `cut at ${cut}`).toEqual(whole);
}

describe('CSV parser', () => {
  it('splits plain rows, keeps spaces, and reads a last row without a line break', () => {
    expect(table(parseIn('a,b,c\n1, 2 ,\n4,5,6'))).toEqual([
      [1, 'a', 'b', 'c'],
      [2, '1', ' 2 ', ''],
      [3, '4', '5', '6'],
    ]);
    expect(table(parseIn('a;b\n1;2\n', [], ';'))).toEqual([
      [1, 'a', 'b'],
      [2, '1', '2'],
    ]);
  });

  it('reads quoted fields with delimiters, doubled quotes and line breaks, and counts their lines', () => {
    const text = 'id,notes\n1,"a, b"\n2,"say ""hi"""\n3,"two\nlines"\n4,""\n5,x\n';
    expect(table(parseIn(text))).toEqual([
      [1, 'id', 'notes'],
      [2, '1', 'a, b'],
      [3, '2', 'say "hi"'],
      [4, '3', 'two\nlines'],
      [6, '4', ''],
      [7, '5', 'x'],
    ]);
    expectSameInEveryCut(text);
  });

  it('takes the first line break outside quotes as the record delimiter: LF, CRLF or CR', () => {
    expect(table(parseIn('a,b\r\n1,"x\r\ny"\r\n\r\n3,4\r\n'))).toEqual([
      [1, 'a', 'b'],
      [2, '1', 'x\r\ny'],
      [4, ''],
      [5, '3', '4'],
    ]);
    expect(table(parseIn('a,b\r1,2\r'))).toEqual([
      [1, 'a', 'b'],
      [2, '1', '2'],
    ]);
    expect(table(parseIn('"a\nb",c\r\n1,2'))).toEqual([
      [1, 'a\nb', 'c'],
      [3, '1', '2'],
    ]);
    // In a CRLF file a lone LF is data, as with csv-parse, and still a line of the file.
    expect(table(parseIn('a,b\r\n1,x\ny\r\n2,z'))).toEqual([
      [1, 'a', 'b'],
      [2, '1', 'x\ny'],
      [4, '2', 'z'],
    ]);
    for (const text of ['a,b\r\n1,2\r\n3,4', 'a,b\r1,2\r3,4', 'a\r\n"x\r\ny"\r\nz\r\n']) expectSameInEveryCut(text);
  });

  it('gives an empty line as a row of one empty field, for the caller to skip', () => {
    expect(table(parseIn('a\n\nb\n'))).toEqual([
      [1, 'a'],
      [2, ''],
      [3, 'b'],
    ]);
  });

  it('refuses malformed quoting with the line of the row, as csv-parse did', () => {
    expect(() => parseIn('a,b\n1,x"y\n')).toThrow(/Field 2 of the row on line 2 has a quote inside it/);
    expect(() => parseIn('a,b\n1,"x"y\n')).toThrow(/Field 2 of the row on line 2 has "y" after its closing quote/);
    expect(() => parseIn('a,b\n1,2\n3,"never closed\n4,5\n')).toThrow(CsvSyntaxError);
    expect(() => parseIn('a,b\n1,2\n3,"never closed\n4,5\n')).toThrow(/row on line 3 is never closed/);
  });

  it('refuses a stray quote as soon as it is read, not after taking the rest of the file for a quoted field', () => {
    expect(() => new CsvParser(',').push('a,b\n1,x"y\n2,3\n4,5\n')).toThrow(/Field 2 of the row on line 2 has a quote inside it/);
  });

  it('reads a quoted field much longer than a chunk, fed in small chunks', () => {
    const long = 'x'.repeat(100_000).replace(/x{999}/g, (m) => `${m}\n`);
    const text = `a,b\n1,"${long}"\n2,"q""uote"\n`;
    const cuts = Array.from({ length: Math.floor(text.length / 1000) }, (_, i) => (i + 1) * 1000);
    expect(parseIn(text, cuts)).toEqual(parseIn(text));
    expect(parseIn(text, cuts)[1]!.values[1]).toBe(long);
    expect(parseIn(text, cuts)[2]).toEqual({ line: 3 + 100, values: ['2', 'q"uote'] });
  });

  it('refuses a delimiter that cannot work', () => {
    for (const delimiter of ['"', '\n', '\r', ';;', '']) expect(() => new CsvParser(delimiter)).toThrow(/delimiter/);
  });

  it('reads what csv-parse reads, rows and lines, fed in any pieces (generated files)', () => {
    // A fixed xorshift sequence: the same cases on every run.
    let seed = 2463534242;
    const random = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 2 ** 32;
    };
    const pieces = ['a', 'b', ' ', ',', ',', '"', '"', '""', '\n', '\r\n', '\r', 'é'];
    for (let n = 0; n < 5_000; n++) {
      let text = '';
      for (let length = Math.floor(random() * 24); length > 0; length--) text += pieces[Math.floor(random() * pieces.length)];
      const cuts = [...text].map((_, i) => i).filter((i) => i > 0 && random() < 0.25);
      let expected: unknown;
      try {
        const records = parse(text, { delimiter: ',', relax_column_count: true, skip_empty_lines: false }) as string[][];
        let line = 1;
        expected = records.map((values) => {
          const row = { line, values };
          line += 1 + values.reduce((sum, value) => sum + value.replace(/\r\n/g, '\n').replace(/[^\r\n]/g, '').length, 0);
          return row;
        });
      } catch {
        expected = 'malformed';
      }
      let actual: unknown;
      try {
        actual = parseIn(text, cuts);
      } catch (error) {
        if (!(error instanceof CsvSyntaxError)) throw error;
        actual = 'malformed';
      }
      expect(actual, JSON.stringify(text)).toEqual(expected);
    }
  });
});
