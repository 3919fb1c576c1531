import type { Command } from 'commander';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';

const run = lazyActions(() => import('./ask.js'));

const HELP_AFTER = `
The answer streams to stdout; the tools the assistant uses, the writes it proposes and the
conversation id go to stderr. Reads run at once. A write runs only when approved: on a terminal
you are asked "Run this? [y/N]" for each; --yes runs them without asking; with neither (a script,
a pipe on stdin, --json) each is cancelled and the command exits 1. --json prints the server's
events as JSON Lines, one per line, ending with {"type":"done",…}.

The sandbox needs a model provider: crm sandbox start --assistant-url URL --assistant-model NAME
(docs/assistant.md). Exit codes: 0 answered; 1 a failure (no provider, the provider failed, the
turn broke off or Ctrl+C) or a write cancelled for want of a terminal; 2 no question or no key.
${examples([
  ['crm ask "which deals are in negotiation?"'],
  ['crm ask "create a deal for Acme worth €12,000 in proposal"', 'asks before it writes'],
  ['crm ask --conversation conv_01J… "and the one for Globex?"', 'go on with a conversation'],
  ['crm ask --yes "move the Acme deal to negotiation"', 'a script: writes run unasked'],
  ['crm ask --json "sum up the pipeline" | jq -c .type'],
])}`;

/** `crm ask`. Definitions only; the code is imported when the command runs. */
export function registerAskCommand(program: Command): void {
  subcommand(program, 'ask <question...>', "Ask the sandbox's built-in assistant: one turn, streamed; writes wait for your yes", HELP_AFTER)
    .option('--conversation <id>', 'continue this conversation (its id is printed at the end of each turn)')
    .option('-y, --yes', 'run every write the assistant proposes without asking', false)
    .action(run((m, g, question: string[], opts: { conversation?: string; yes: boolean }) => m.askCommand({ ...g, ...opts }, question)));
}
