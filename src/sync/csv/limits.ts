/**
 * How long one field and one row of an imported CSV file may be (`--max-field-size`). Counted in
 * characters of the decoded text, as written in the file (a quoted field's quotes included): what
 * the parser holds in memory, and for ASCII text the same as bytes. A row may be FIELDS_PER_ROW
 * times the field cap, so one flag raises both. Plain data: the CLI's --help loads it.
 */
export const DEFAULT_MAX_FIELD_SIZE = 1024 * 1024;
export const FIELDS_PER_ROW = 4;
/** Four times this (a row) stays under V8's longest string (2^29 - 24 characters). */
const MAX_FIELD_SIZE = 100 * 1024 * 1024;

const UNITS: Record<string, number> = { '': 1, k: 1024, kb: 1024, kib: 1024, m: 1024 * 1024, mb: 1024 * 1024, mib: 1024 * 1024 };

/** `4M`, `512K`, `2MB`, `1MiB` or a plain number of characters; K and M are 1024 and 1024². */
export function parseSize(value: string): number | undefined {
  const match = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(value);
  const unit = match ? UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) return undefined;
  const size = Number(match[1]) * unit;
  return size >= 1 && size <= MAX_FIELD_SIZE ? size : undefined;
}

/** A size as the flag takes it: 1M, 512K, or the number itself. */
export function formatSize(size: number): string {
  if (size % (1024 * 1024) === 0) return `${size / (1024 * 1024)}M`;
  if (size % 1024 === 0) return `${size / 1024}K`;
  return String(size);
}
