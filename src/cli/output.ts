/**
 * Terminal output shared by every command: colour only on a terminal and never with NO_COLOR
 * (https://no-color.org), human text on stderr/stdout, and one JSON document with --json.
 */
const useColor = (stream: NodeJS.WriteStream) =>
  stream.isTTY === true && !('NO_COLOR' in process.env && process.env.NO_COLOR !== '') && process.env.TERM !== 'dumb';

const paint = (code: number) => (text: string, stream: NodeJS.WriteStream = process.stdout) =>
  useColor(stream) ? `\u001b[${code}m${text}\u001b[0m` : text;

export const bold = paint(1);
export const dim = paint(2);
export const red = paint(31);
export const green = paint(32);
export const yellow = paint(33);
export const cyan = paint(36);

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** A failure the user can act on: the message says what happened and what to do next. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Ends a command with an exit code after it has reported everything itself (e.g. some rows failed). */
export class ExitCode extends CliError {
  constructor(exitCode: number) {
    super('', exitCode);
  }
}

export function printError(error: unknown, json: boolean): number {
  if (error instanceof ExitCode) return error.exitCode;
  const exitCode = error instanceof CliError ? error.exitCode : 1;
  const message = error instanceof Error ? error.message : String(error);
  if (json) process.stdout.write(`${JSON.stringify({ error: { message, exit_code: exitCode } })}\n`);
  else process.stderr.write(`${red('error', process.stderr)}: ${message}\n`);
  return exitCode;
}

/** A plain aligned table for people; commands print JSON instead with --json. */
export function table(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '—' : String(c))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [bold(line(cells[0]!)), ...cells.slice(1).map(line)].join('\n') + '\n';
}
