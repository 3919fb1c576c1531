import type { Command } from 'commander';
import { httpUrl, wholeNumber } from '../../arg-parsers.js';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';
import { sinceArg } from '../../since.js';
import { DEFAULT_STATE_FILE, STATE_HELP } from '../listen/state-option.js';

const run = lazyActions(() => import('./events.js'));

/**
 * The event log (docs/webhooks.md): `crm events list|get|resend|replay`. Definitions only; the code is
 * imported when a command runs, so --help stays fast.
 */
export function registerEventCommands(program: Command): void {
  const events = subcommand(
    program,
    'events',
    'The event log: list, inspect, resend, replay',
    examples([['crm events list --since 1h'], ['crm events resend evt_01J8Z… --forward-to http://localhost:3000/webhooks']]),
  );
  subcommand(
    events,
    'list',
    'Events, oldest first',
    examples([['crm events list', 'the last 24 hours'], ['crm events list --type deal.won,invoice.paid --since 7d --json']]),
  )
    .option('--type <types>', 'only these types (comma-separated)')
    .option('--since <when>', 'a duration back from now (30m, 1h, 2d) or an RFC 3339 time (default: 24h)', sinceArg)
    .option('--limit <n>', 'at most this many', wholeNumber(1, 100_000), 100)
    .action(
      run((m, g, opts: { type?: string; since?: string; limit: number }) => m.listEventsCommand({ ...g, ...opts, since: opts.since ?? sinceArg('24h') })),
    );
  subcommand(events, 'get <id>', 'One event, as JSON', examples([['crm events get evt_01J8Z…']])).action(run((m, g, id: string) => m.getEventCommand(g, id)));
  subcommand(
    events,
    'resend <id>',
    'Deliver an event again to the webhook endpoints, or with --forward-to to a local URL (signed with the listen secret)',
    examples([['crm events resend evt_01J8Z…', 'to every endpoint it went to'], ['crm events resend evt_01J8Z… --forward-to http://localhost:3000/webhooks']]),
  )
    .option('--endpoint <id>', 'only to this webhook endpoint')
    .option('--forward-to <url>', 'POST it here instead, signed as crm listen signs', httpUrl)
    .option('--state <file>', STATE_HELP, DEFAULT_STATE_FILE)
    .action(run((m, g, id: string, opts: { endpoint?: string; forwardTo?: string; state: string }) => m.resendCommand({ ...g, ...opts }, id)));
  subcommand(
    events,
    'replay',
    'Every event since a time, in order: resent to the endpoints, or with --forward-to POSTed to a local URL',
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
    .action(run((m, g, opts: { since: string; type?: string; endpoint?: string; forwardTo?: string; state: string }) => m.replayCommand({ ...g, ...opts })));
}
