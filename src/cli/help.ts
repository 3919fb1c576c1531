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
