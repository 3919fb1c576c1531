import { CommanderError } from 'commander';
import { SyncUsageError } from '../sync/errors.js';

/**
 * The CLI's exit codes, one table for every command (docs/reference/errors.md, docs/sandbox.md):
 * what a shell script or CI job may branch on, so a code never changes meaning.
 */
export const EXIT = {
  /** Done, and `--help` or `--version` printed. */
  ok: 0,
  /** An API error, the server not running, rows that failed, a job stopped before its end. */
  failure: 1,
  /** What was typed can never work: a flag, a value the CLI can check itself, no key found. */
  usage: 2,
  /** A second Ctrl+C: given up at once, as a shell reports SIGINT. */
  interrupted: 130,
} as const;

/** A failure the user can act on: the message says what happened and what to do next. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
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

const COMMANDER_SUCCESS = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

/** The exit code for what a command threw. */
export function exitCodeOf(error: unknown): number {
  // Help and version are successes; everything else commander refuses is a usage error.
  if (error instanceof CommanderError) return COMMANDER_SUCCESS.has(error.code) ? EXIT.ok : EXIT.usage;
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof SyncUsageError) return EXIT.usage;
  return EXIT.failure;
}
