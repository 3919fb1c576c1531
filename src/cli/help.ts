import { InvalidArgumentError } from 'commander';

/**
 * The `Examples:` block every command's --help ends with (the team's rule: an example on every
 * command), for `.addHelpText('after', examples([...]))`. Each example is a whole `crm …` line,
 * optionally with a comment, aligned so that the comments line up; `before` is prose shown above
 * it. The root command, `sync export` and `sdk generate` had such blocks first: this is their
 * format, shared.
 */
export function examples(list: readonly (readonly [line: string, comment?: string])[], before = ''): string {
  // Comments line up, unless one long line would push them all off the screen.
  const width = Math.max(...list.filter(([line]) => line.length <= 60).map(([line]) => line.length), 0);
  const lines = list.map(([line, comment]) => `  $ ${comment ? `${line.padEnd(width)}   # ${comment}` : line}`);
  return `${before ? `\n${before.trim()}\n` : ''}\nExamples:\n${lines.join('\n')}`;
}

/** A comma- or space-separated list, each item checked against `known` at parse time: a typo is a usage error (exit 2). */
export function listOf(known: readonly string[], what: string, extra: readonly string[] = []) {
  const allowed = new Set([...known, ...extra]);
  return (value: string): string[] => {
    const items = value.split(/[\s,]+/).filter(Boolean);
    if (!items.length) throw new InvalidArgumentError(`Expected at least one ${what}.`);
    for (const item of items) {
      if (allowed.has(item)) continue;
      const near = closest(item, [...allowed]);
      throw new InvalidArgumentError(`Unknown ${what} '${item}'${near ? ` (did you mean ${near}?)` : ''}. Known: ${[...allowed].join(' ')}.`);
    }
    return items;
  };
}

/** The known word nearest a typo (edit distance at most 2), for "did you mean". */
function closest(word: string, known: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
