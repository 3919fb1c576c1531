import type { FieldType } from '../../domain/custom-fields.js';
import { booleanOf, datetimeOf, isDateText, isEmailText, isNumberText, isUrlText } from './field-cells.js';

/**
 * The type `--create-fields` gives a column (docs/sync.md, "Custom fields"), read from every cell
 * of it in a first pass over the file. Only a summary per column is kept, so memory stays flat
 * whatever the file's size: which types every filled cell fits, the longest cell, and its
 * distinct values up to one more than a select may be made of.
 */
const MAX_SELECT_OPTIONS = 50;

/** The types a column may be given, tried in this order: the first every filled cell fits. */
const CHECKS: [FieldType, (text: string) => boolean][] = [
  // A number with a leading zero is a code (a postal code, an id: 00950), not a quantity.
  ['number', (t) => isNumberText(t) && !/^[+-]?0\d/.test(t)],
  ['boolean', (t) => booleanOf(t) !== undefined],
  ['date', isDateText],
  ['datetime', (t) => datetimeOf(t) !== undefined],
  ['email', isEmailText],
  ['url', isUrlText],
];

export class ColumnSummary {
  filled = 0;
  longest = 0;
  /** Distinct trimmed values in first-seen order; past MAX_SELECT_OPTIONS + 1 no more are kept. */
  readonly distinct = new Set<string>();
  private fits = new Set(CHECKS.map(([type]) => type));
  /** Some value cannot be an option's value (longer than 100, or a comma at an end). */
  private notAnOption = false;

  add(cell: string): void {
    if (cell.trim() === '') return;
    this.filled++;
    this.longest = Math.max(this.longest, cell.length);
    const text = cell.trim();
    for (const [type, fits] of CHECKS) if (this.fits.has(type) && !fits(text)) this.fits.delete(type);
    if (this.distinct.size <= MAX_SELECT_OPTIONS) this.distinct.add(text);
    if (text.length > 100 || /^,|,$/.test(text)) this.notAnOption = true;
  }

  /**
   * The type: the first check every filled cell passes; else a select when the column holds at
   * most 50 distinct values that repeat (fewer values than filled cells: a column of names or notes
   * in a short file is not a list to choose from); else text, or long_text past 1,000 characters.
   */
  type(): FieldType {
    if (this.filled === 0) return 'text';
    for (const [type] of CHECKS) if (this.fits.has(type)) return type;
    if (!this.notAnOption && this.distinct.size <= MAX_SELECT_OPTIONS && this.distinct.size < this.filled) return 'select';
    return this.longest > 1000 ? 'long_text' : 'text';
  }

  /** A select's options: its values as they are written, in the order they first appear. */
  options(): { value: string; label: string }[] {
    return [...this.distinct].map((value) => ({ value, label: value }));
  }
}
