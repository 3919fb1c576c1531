/**
 * Turns what a user types into an FTS5 query: every word must match, as a prefix, quotes escaped,
 * so no input is FTS5 syntax (AND, NEAR, column filters, `*` alone) and none is an error. NUL
 * separates words too: FTS5 reads its query as a C string and fails on one inside quotes. Nothing
 * to search for (only punctuation) is the empty phrase, which matches nothing.
 */
export function ftsQuery(text: string): string {
  const words = text.split(/[\s\0"'()*:^+\-,.;@]+/u).filter(Boolean);
  if (words.length === 0) return '""';
  return words.map((w) => `"${w.replaceAll('"', '""')}"*`).join(' ');
}
