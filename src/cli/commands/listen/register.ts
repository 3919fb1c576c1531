import type { Command } from 'commander';
import { httpUrl, wholeNumber } from '../../arg-parsers.js';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';
import { DEFAULT_STATE_FILE, STATE_HELP } from './state-option.js';

const run = lazyActions(() => import('./listen.js'));

const HELP_AFTER = `
Each event is POSTed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature)
signed with the listen secret printed at start; it stays the same across runs (kept in --state).
Events are forwarded one at a time, in order: the next goes only after the previous succeeded (2xx)
or used up its retries. A restart first forwards the events made while it was down.
${examples([
  ['crm listen --forward-to http://localhost:3000/webhooks'],
  ['crm listen --forward-to http://localhost:3000/webhooks --events deal.won,invoice.paid --from now'],
])}`;

/** `crm listen`. Definitions only; the code is imported when the command runs. */
export function registerListenCommand(program: Command): void {
  subcommand(program, 'listen', 'Forward the event stream of --base-url to a local URL, signed, in order, resuming after restarts', HELP_AFTER)
    .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/webhooks', httpUrl)
    .option('--events <types>', 'only these types (comma-separated)')
    .option('--from <position>', 'now, or an event id to start after (default: where the last run stopped, else now)')
    .option('--state <file>', STATE_HELP, DEFAULT_STATE_FILE)
    .option('--retries <n>', 'further tries of a failed forward, with backoff, before moving on', wholeNumber(0, 100), 5)
    .action(run((m, g, opts: { forwardTo: string; events?: string; from?: string; state: string; retries: number }) => m.listenCommand({ ...g, ...opts })));
}
