import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CRM_BIN } from './sandbox.js';

/** Runs `bin/crm …` to completion (on `options.node`, by default the node running the tests): exit code and output. */
export function runCrm(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { cwd?: string; input?: string; node?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(options.node ?? process.execPath, [CRM_BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  if (options.input !== undefined) child.stdin!.end(options.input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * Starts a long-running `bin/crm …` (e.g. listen) and collects its stdout lines; `waitForLine`
 * resolves with the first line (from `from` on) that matches.
 */
export function spawnCrm(args: string[], env: NodeJS.ProcessEnv = {}, node = process.execPath, cwd?: string, stdin: 'ignore' | 'pipe' = 'ignore') {
  const child: ChildProcess = spawn(node, [CRM_BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: [stdin, 'pipe', 'pipe'],
    ...(cwd ? { cwd } : {}),
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    async waitForLine(match: (line: string) => boolean, timeoutMs = 20_000, from = 0): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.slice(from).find(match);
        if (found !== undefined) return found;
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(`No matching line from crm ${args.join(' ')} (exit ${child.exitCode}).\nstdout:\n${lines.join('\n')}\nstderr:\n${stderr}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Runs `bin/crm …` on a pseudo-terminal, as a person at a terminal would (util-linux `script`):
 * stdin, stdout and stderr are all the terminal, so prompts appear; `input` is typed into it.
 * The output is what the terminal showed: stdout and stderr together, lines ending in CRLF.
 */
export function runCrmOnTerminal(args: string[], env: NodeJS.ProcessEnv = {}, input = ''): Promise<{ code: number | null; output: string }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, CRM_BIN, ...args].map(quote).join(' ');
  // -e: script exits with the command's code; -q: no "Script started" lines; the log goes nowhere.
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.end(input);
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}
