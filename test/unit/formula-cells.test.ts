import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeFormula, unescapeFormula, unescapeRow } from '../../src/sync/csv/formula-cells.js';

/** The characters a spreadsheet may take as the start of a formula (formula-cells.ts). */
const TRIGGERS = ['=', '+', '-', '@', '\t', '\r', '\0', '＝', '＋', '－', '＠'];
const startsWithTrigger = (cell: string) => TRIGGERS.some((t) => cell.startsWith(t));
const plainNegativeNumber = (cell: string) => /^-\d+(?:\.\d+)?(?:e[-+]\d+)?$/.test(cell);

// Strings made mostly of quotes, triggers and digits, so the edges (''=, '-1, -1e-7) come up often.
const tricky = fc.string({ unit: fc.constantFrom(...TRIGGERS, "'", "'", '1', '5', '.', 'e', 'a', ' ', ',', '"', '\n'), maxLength: 8 });
const anyText = fc.oneof(tricky, fc.string({ unit: 'binary' }), fc.double().map(String), fc.integer().map(String));

describe('escapeFormula / unescapeFormula', () => {
  it('is exactly invertible: unescape(escape(s)) === s for any s', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        expect(unescapeFormula(escapeFormula(s))).toBe(s);
      }),
      { numRuns: 10_000, seed: 23 },
    );
  });

  it('never leaves a trigger first, except in a plain negative number', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const cell = escapeFormula(s);
        if (startsWithTrigger(cell)) expect(plainNegativeNumber(cell)).toBe(true);
      }),
      { numRuns: 10_000, seed: 23 },
    );
  });

  it('adds at most one quote, and only to a cell that starts with quotes then a trigger', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const cell = escapeFormula(s);
        expect(cell === s || cell === `'${s}`).toBe(true);
        if (cell !== s) expect(/^'*/.exec(s)![0].length < s.length && startsWithTrigger(s.replace(/^'*/, ''))).toBe(true);
      }),
      { numRuns: 10_000, seed: 23 },
    );
  });

  it('escapes each trigger, quoted values and lookalikes as the rule says', () => {
    const cases: [string, string][] = [
      ['=1+1', "'=1+1"],
      ['+33 6 12 34 56 78', "'+33 6 12 34 56 78"], // a phone stays text in a spreadsheet, with its +
      ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
      ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
      ['\t=1+1', "'\t=1+1"],
      ['\r=1+1', "'\r=1+1"],
      ['\0=1+1', "'\0=1+1"],
      ['＝1+1', "'＝1+1"],
      ['＋1', "'＋1"],
      ['－1', "'－1"],
      ['＠SUM(A1)', "'＠SUM(A1)"],
      ["'=1+1", "''=1+1"], // a value that starts with '= keeps its own quote
      ["''@x", "'''@x"],
      ['-', "'-"],
      ['-12.5 EUR', "'-12.5 EUR"],
      ['-1,5', "'-1,5"],
      ['-1E5', "'-1E5"], // not how JavaScript writes a number: escaped
      ['--5', "'--5"],
    ];
    for (const [value, cell] of cases) {
      expect(escapeFormula(value), JSON.stringify(value)).toBe(cell);
      expect(unescapeFormula(cell)).toBe(value);
    }
  });

  it('leaves plain text, quotes before text, and plain negative numbers alone', () => {
    for (const value of ['', 'Ada', "'", "''", "'abc", "O'Brien", ' =1+1', 'a=1', '42', '-12.5', '-3', '-0', '-1e-7', '-1.5e+21', String(-Number.MAX_VALUE)]) {
      expect(escapeFormula(value), JSON.stringify(value)).toBe(value);
      expect(unescapeFormula(value)).toBe(value);
    }
  });

  it('unescapes a row in place, cell by cell', () => {
    const row = ["'=1+1", 'Ada', "''-x", "'abc", '-5', ''];
    expect(unescapeRow(row)).toBe(row);
    expect(row).toEqual(['=1+1', 'Ada', "'-x", "'abc", '-5', '']);
  });
});
