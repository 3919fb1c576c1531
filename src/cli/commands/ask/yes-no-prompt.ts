import { createInterface } from 'node:readline/promises';

/**
 * Asks a yes/no question on stderr and reads one line of the terminal: only "y" or "yes" is yes;
 * anything else, an empty line or the end of input (Ctrl+D) is no. The line is read as the
 * terminal's line editing gives it (not raw mode), so Ctrl+C stays a signal, which aborts `signal`.
 */
export async function askOnTerminal(question: string, signal: AbortSignal): Promise<boolean> {
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  try {
    const ended = new Promise<string>((resolve) => lines.once('close', () => resolve('')));
    const answer = await Promise.race([lines.question(question, { signal }), ended]);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    lines.close();
  }
}
