/**
 * How values that are not plain text live in one CSV cell, chosen so that an export imports back
 * to exactly the same values:
 *   - tags are joined with `|` ("vip|partner"); when a tag itself contains `|` (or the cell would
 *     start with `[`), the cell is the JSON array instead. Empty cell: no tags.
 *   - a custom.<key> cell is typed by its text: `true`/`false` are booleans, a number written the
 *     way JavaScript writes it (`42`, `-1.5`, not `042` or `1e3`) is a number, anything else a string.
 *     An empty cell means the key is absent. Values that would not come back the same that way
 *     (null, "", the string "42") are exported in the custom_fields JSON column instead.
 */
export type CustomValue = string | number | boolean | null | string[];

export function tagsToCell(tags: string[]): string {
  const joined = tags.join('|');
  return tags.some((t) => t.includes('|')) || joined.startsWith('[') ? JSON.stringify(tags) : joined;
}

export function tagsFromCell(cell: string): unknown {
  if (cell === '') return [];
  if (cell.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(cell);
      if (Array.isArray(parsed)) return parsed; // the schema checks that every tag is a string
    } catch {
      // not JSON: a tag that starts with '['
    }
  }
  return cell.split('|');
}

export function customFromCell(cell: string): CustomValue {
  if (cell === 'true') return true;
  if (cell === 'false') return false;
  const n = Number(cell);
  return cell !== '' && Number.isFinite(n) && String(n) === cell ? n : cell;
}

/** Whether a custom value survives a trip through a custom.<key> cell unchanged. */
export function fitsCustomCell(value: CustomValue | undefined): value is string | number | boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value !== '' && customFromCell(value) === value;
  return typeof value === 'boolean' || Number.isFinite(value);
}
