import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { CliError, EXIT, ExitCode, exitCodeOf } from '../../src/cli/exit-codes.js';
import { SyncUsageError } from '../../src/sync/errors.js';
import { PlanRefused } from '../../src/sync/import/plan.js';

/** The one table from what a command threw to the code the CLI exits with (src/cli/exit-codes.ts, docs/reference/errors.md). */
describe('exitCodeOf', () => {
  it.each([
    ['--help', new CommanderError(0, 'commander.helpDisplayed', ''), 0],
    ['--version', new CommanderError(0, 'commander.version', ''), 0],
    ['help', new CommanderError(0, 'commander.help', ''), 0],
    ['an unknown option', new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"), 2],
    ['an invalid argument', new CommanderError(1, 'commander.invalidArgument', 'error: …'), 2],
    ['a CliError', new CliError('The server is not running.'), 1],
    ['a usage CliError', new CliError('--lang takes one of …', EXIT.usage), 2],
    ['an ExitCode after a report', new ExitCode(EXIT.failure), 1],
    ['a sync usage error', new SyncUsageError('Unknown column "x".'), 2],
    ['a refused plan', new PlanRefused('This server does not support bulk dry runs'), 1],
    ['anything else', new Error('boom'), 1],
    ['a thrown string', 'boom', 1],
  ])('%s exits %d', (_what, error, code) => {
    expect(exitCodeOf(error)).toBe(code);
  });

  it('names the codes the docs promise', () => {
    expect(EXIT).toEqual({ ok: 0, failure: 1, usage: 2, interrupted: 130 });
  });
});
