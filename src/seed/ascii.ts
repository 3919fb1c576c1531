/**
 * An email's local part from a person's name, in plain ASCII: `Łukasz Nowak` → `lukasz.nowak`,
 * `Søren Müller` → `soren.muller`. Diacritics are dropped (NFD), and the letters NFD does not
 * decompose are spelled as their languages romanise them (Ł → l, ø → o, ß → ss, æ → ae…). What
 * has no Latin spelling here (a CJK or Cyrillic name) gives '' — the caller then uses a neutral
 * local part — rather than a guess or a mangled half-name (`ukasz`, as the seed once made).
 */
const LETTERS: Record<string, string> = {
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
  ŧ: 't',
  ħ: 'h',
  ŀ: 'l',
};

export function asciiWord(text: string): string {
  return text
    .toLowerCase()
    .replace(/[łøđðþßæœıŧħŀ]/g, (c) => LETTERS[c]!)
    .normalize('NFD')
    .replace(/[^a-z0-9]+/g, '');
}

/** `first.last` in ASCII, the part that has a Latin spelling alone, or `fallback` when neither has. */
export function emailLocalPart(first: string, last: string, fallback: string): string {
  return [asciiWord(first), asciiWord(last)].filter(Boolean).join('.') || fallback;
}
