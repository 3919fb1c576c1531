import type { Command } from 'commander';
import type { GlobalOptions } from '../../api.js';
import { httpUrl, wholeNumber } from '../../arg-parsers.js';
import { examples } from '../../help.js';
import { sinceArg } from '../../since.js';
import { DEFAULT_STATE_FILE, STATE_HELP } from '../listen/state-option.js';

const globals = (cmd: Command) => cmd.optsWithGlobals<GlobalOptions>();

/**
 * The event log (docs/webhooks.md): `crm events list|get|resend|replay`. Definitions only; the code is
 * imported when a command runs, so --help stays fast.
 */
export function registerEventCommands(program: Command): void {
  const events = program
    .command('events')
    .description('The event log: list, inspect, resend, replay')
    .addHelpText('after', examples([['crm events list --since 1h'], ['crm events resend evt_01J8Z… --forward-to http://localhost:3000/webhooks']]));
  events
    .command('list')
    .description('Events, oldest first')
    .addHelpText('after', examples([['crm events list', 'the last 24 hours'], ['crm events list --type deal.won,invoice.paid --since 7d --json']]))
    .option('--type <types>', 'only these types (comma-separated)')
    .option('--since <when>', 'a duration back from now (30m, 1h, 2d) or an RFC 3339 time (default: 24h)', sinceArg)
    .option('--limit <n>', 'at most this many', wholeNumber(1, 100_000), 100)
    .action(async (opts: { type?: string; since?: string; limit: number }, cmd: Command) => {
      const { listEventsCommand } = await import('./events.js');
      await listEventsCommand({ ...globals(cmd), ...opts, since: opts.since ?? sinceArg('24h') });
    });
  events
    .command('get <id>')
    .description('One event, as JSON')
    .addHelpText('after', examples([['crm events get evt_01J8Z…']]))
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const { getEventCommand } = await import('./events.js');
      await getEventCommand(globals(cmd), id);
    });
  events
    .command('resend <id>')
    .description('Deliver an event again to the webhook endpoints, or with --forward-to to a local URL (signed with the listen secret)')
    .addHelpText(
      'after',
      examples([
        ['crm events resend evt_01J8Z…', 'to every endpoint it went to'],
        ['crm events resend evt_01J8Z… --forward-to http://localhost:3000/webhooks'],
      ]),
    )
    .option('--endpoint <id>', 'only to this webhook endpoint')
    .option('--forward-to <url>', 'POST it here instead, signed as crm listen signs', httpUrl)
    .option('--state <file>', STATE_HELP, DEFAULT_STATE_FILE)
    .action(async (id: string, opts: { endpoint?: string; forwardTo?: string; state: string }, cmd: Command) => {
      const { resendCommand } = await import('./events.js');
      await resendCommand({ ...globals(cmd), ...opts }, id);
    });
  events
    .command('replay')
    .description('Every event since a time, in order: resent to the endpoints, or with --forward-to POSTed to a local URL')
    .addHelpText(
      'after',
      examples([
        ['crm events replay --since 1h --forward-to http://localhost:3000/webhooks'],
        ['crm events replay --since 2026-11-20T00:00:00Z --type deal.won --endpoint we_01J8Z…'],
      ]),
    )
    .requiredOption('--since <when>', 'a duration back from now (30m, 1h, 2d) or an RFC 3339 time', sinceArg)
    .option('--type <types>', 'only these types (comma-separated)')
    .option('--endpoint <id>', 'only to this webhook endpoint')
    .option('--forward-to <url>', 'POST them here instead, signed as crm listen signs', httpUrl)
    .option('--state <file>', STATE_HELP, DEFAULT_STATE_FILE)
    .action(async (opts: { since: string; type?: string; endpoint?: string; forwardTo?: string; state: string }, cmd: Command) => {
      const { replayCommand } = await import('./events.js');
      await replayCommand({ ...globals(cmd), ...opts });
    });
}
