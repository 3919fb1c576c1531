/**
 * Terminal output shared by every command: colour only on a terminal and never with NO_COLOR
 * (https://no-color.org), human text on stderr/stdout, and one JSON document with --json.
 */
import { ExitCode, exitCodeOf } from './exit-codes.js';

const useColor = (stream: NodeJS.WriteStream) =>
  stream.isTTY === true && !('NO_COLOR' in process.env && process.env.NO_COLOR !== '') && process.env.TERM !== 'dumb';

const paint =
  (code: number) =>
  (text: string, stream: NodeJS.WriteStream = process.stdout) =>
    useColor(stream) ? `\u001b[${code}m${text}\u001b[0m` : text;

export const bold = paint(1);
export const dim = paint(2);
export const red = paint(31);
export const green = paint(32);
export const yellow = paint(33);
export const cyan = paint(36);

const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** In a table cell, tab and newline too: either would make a cell look like other cells or rows. */
const ONE_LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text from a server or a file, made safe to show: a terminal acts on control characters instead
 * of showing them (ESC starts a sequence, OSC 52 writes the clipboard, U+009B is CSI on its own,
 * CR moves back over what was printed). Each C0 control but tab and newline (`oneLine`: those
 * too), DEL and each C1 control is shown as \xHH instead (ESC as \x1b). What people read goes
 * through here: a table's cells, error messages, warnings, and what withClient hands a command to
 * print. docs/security.md, "The terminal".
 */
export function terminalSafe(text: string, oneLine = false): string {
  return text.replace(oneLine ? ONE_LINE_CONTROLS : CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** terminalSafe on every string in a JSON-like value (arrays and plain objects), the rest as it is. */
export function terminalSafeDeep<T>(value: T): T {
  if (typeof value === 'string') return terminalSafe(value) as T;
  if (Array.isArray(value)) return value.map(terminalSafeDeep) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, terminalSafeDeep(v)])) as T;
  }
  return value;
}

/**
 * One JSON document. JSON.stringify escapes C0 controls already; DEL and C1 controls (U+009B is
 * CSI to some terminals) are written as \u escapes too: the same JSON value, nothing a terminal acts on.
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${jsonText(value)}\n`);
}

export { CliError, ExitCode } from './exit-codes.js';

/** Prints what a command threw, once (an ExitCode has printed its own report), and returns its exit code. */
export function printError(error: unknown, json: boolean): number {
  const exitCode = exitCodeOf(error);
  if (error instanceof ExitCode) return exitCode;
  const message = error instanceof Error ? error.message : String(error);
  if (json) printJson({ error: { message, exit_code: exitCode } });
  else process.stderr.write(`${red('error', process.stderr)}: ${terminalSafe(message)}\n`);
  return exitCode;
}

/** A warning line on stderr (a profile file others can read, a sandbox file crm ignored). */
export function printWarning(message: string): void {
  process.stderr.write(`${yellow('warning', process.stderr)}: ${terminalSafe(message)}\n`);
}

/** A plain aligned table for people; commands print JSON instead with --json. */
export function table(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '—' : terminalSafe(String(c), true))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [bold(line(cells[0]!)), ...cells.slice(1).map(line)].join('\n') + '\n';
}
