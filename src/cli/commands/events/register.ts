import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import { EVENT_TYPES, TRIGGERABLE_EVENT_TYPES, type EventType, type TriggerableEventType } from '../../../domain/event-types.js';
import type { GlobalOptions } from '../../api.js';
import { sinceArg } from '../../since.js';
import { httpUrl, listOf } from '../../arg-parsers.js';
import { examples } from '../../help.js';

/**
 * Where `crm listen` keeps its secret and position (listen-state.ts). Here, not there: that module
 * loads node:crypto (~6 ms), and the definitions below are built for every command, --help too.
 */
const DEFAULT_STATE_FILE = '.crm/listen.json';

/**
 * The commands around events (API.md §9): `crm webhooks …`, `crm events …`, `crm trigger`,
 * `crm listen`. Definitions only; each command's code is imported when it runs, so --help stays fast.
 */
function count(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`Expected a whole number ${min}..${max}.`);
    return n;
  };
}

const globals = (cmd: Command) => cmd.optsWithGlobals<GlobalOptions>();
const STATE_HELP = 'where crm listen keeps its secret and position';

export function registerEventCommands(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('Manage webhook endpoints and their deliveries')
    .addHelpText('after', examples([['crm webhooks list'], ['crm webhooks create --url https://example.com/hooks --events deal.won,invoice.paid']]));
  webhooks
    .command('create')
    .description('Create an endpoint; its signing secret is shown once')
    .addHelpText('after', examples([['crm webhooks create --url https://example.com/hooks', 'every event type'], ['crm webhooks create --url https://example.com/hooks --events deal.won,invoice.paid --description billing']]))
    .requiredOption('--url <url>', 'where deliveries are POSTed', httpUrl)
    .option('--events <types>', 'comma-separated event types, or * for all', listOf(EVENT_TYPES, 'event type', ['*']), ['*'])
    .option('--description <text>', 'what the endpoint is for')
    .action(async (opts: { url: string; events: string[]; description?: string }, cmd: Command) => {
      const { createWebhook } = await import('../webhooks/webhooks.js');
      await createWebhook(globals(cmd), opts);
    });
  webhooks
    .command('list')
    .description('List endpoints')
    .addHelpText('after', examples([['crm webhooks list'], ['crm webhooks list --json']]))
    .action(async (_opts: unknown, cmd: Command) => {
      const { listWebhooks } = await import('../webhooks/webhooks.js');
      await listWebhooks(globals(cmd));
    });
  webhooks
    .command('update <id>')
    .description('Change an endpoint; --enable sends the deliveries held while it was disabled')
    .addHelpText('after', examples([['crm webhooks update we_01J8Z… --disable', 'deliveries wait'], ['crm webhooks update we_01J8Z… --enable --events "*"']]))
    .option('--url <url>', 'new URL', httpUrl)
    .option('--events <types>', 'comma-separated event types, or *', listOf(EVENT_TYPES, 'event type', ['*']))
    .option('--description <text>', 'new description')
    .option('--enable', 'enable it')
    .option('--disable', 'disable it (deliveries wait)')
    .action(async (id: string, opts: { url?: string; events?: string[]; description?: string; enable?: boolean; disable?: boolean }, cmd: Command) => {
      const { updateWebhook } = await import('../webhooks/webhooks.js');
      await updateWebhook(globals(cmd), id, opts);
    });
  webhooks
    .command('delete <id>')
    .description('Delete an endpoint and its delivery history')
    .addHelpText('after', examples([['crm webhooks delete we_01J8Z…']]))
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const { deleteWebhook } = await import('../webhooks/webhooks.js');
      await deleteWebhook(globals(cmd), id);
    });
  webhooks
    .command('rotate-secret <id>')
    .description('New signing secret; the old one keeps signing beside it for 24 h (--expire-old: stops at once)')
    .option('--expire-old', 'the old secret stops signing now, for a secret that leaked (receivers checking only it fail from the next delivery)')
    .addHelpText('after', examples([['crm webhooks rotate-secret we_01J8Z…'], ['crm webhooks rotate-secret we_01J8Z… --expire-old']]))
    .action(async (id: string, opts: { expireOld?: boolean }, cmd: Command) => {
      const { rotateWebhookSecret } = await import('../webhooks/webhooks.js');
      await rotateWebhookSecret(globals(cmd), id, opts.expireOld === true);
    });
  webhooks
    .command('deliveries <id>')
    .description('Delivery attempts to an endpoint: status, HTTP code, duration, error, next attempt')
    .addHelpText('after', examples([['crm webhooks deliveries we_01J8Z… --status failed'], ['crm webhooks deliveries we_01J8Z… --event evt_01J8Z… --json']]))
    .option('--event <id>', 'only for this event')
    .addOption(new Option('--status <status>', 'only attempts in this state').choices(['pending', 'succeeded', 'failed']))
    .option('--limit <n>', 'at most this many', count(1, 100_000), 100)
    .action(async (id: string, opts: { event?: string; status?: string; limit: number }, cmd: Command) => {
      const { listWebhookDeliveries } = await import('../webhooks/webhooks.js');
      await listWebhookDeliveries(globals(cmd), id, opts);
    });
  webhooks
    .command('recover <id>')
    .description('Re-queue the deliveries that failed for good since a time')
    .addHelpText('after', examples([['crm webhooks recover we_01J8Z… --since 2h'], ['crm webhooks recover we_01J8Z… --since 2026-11-20T00:00:00Z']]))
    .requiredOption('--since <when>', 'a duration back from now (30m, 1h, 2d) or an RFC 3339 time', sinceArg)
    .action(async (id: string, opts: { since: string }, cmd: Command) => {
      const { recoverWebhook } = await import('../webhooks/webhooks.js');
      await recoverWebhook(globals(cmd), id, opts.since);
    });

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
    .option('--limit <n>', 'at most this many', count(1, 100_000), 100)
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
    .addHelpText('after', examples([['crm events resend evt_01J8Z…', 'to every endpoint it went to'], ['crm events resend evt_01J8Z… --forward-to http://localhost:3000/webhooks']]))
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
    .addHelpText('after', examples([['crm events replay --since 1h --forward-to http://localhost:3000/webhooks'], ['crm events replay --since 2026-11-20T00:00:00Z --type deal.won --endpoint we_01J8Z…']]))
    .requiredOption('--since <when>', 'a duration back from now (30m, 1h, 2d) or an RFC 3339 time', sinceArg)
    .option('--type <types>', 'only these types (comma-separated)')
    .option('--endpoint <id>', 'only to this webhook endpoint')
    .option('--forward-to <url>', 'POST them here instead, signed as crm listen signs', httpUrl)
    .option('--state <file>', STATE_HELP, DEFAULT_STATE_FILE)
    .action(async (opts: { since: string; type?: string; endpoint?: string; forwardTo?: string; state: string }, cmd: Command) => {
      const { replayCommand } = await import('./events.js');
      await replayCommand({ ...globals(cmd), ...opts });
    });

  program
    .command('trigger')
    .description('Make the API calls that cause an event (e.g. deal.won creates a deal and wins it)')
    .addArgument(new Argument('<event-type>', 'the event to cause').choices(TRIGGERABLE_EVENT_TYPES))
    .addHelpText(
      'after',
      examples([['crm trigger deal.won', 'creates a deal and wins it'], ['crm trigger invoice.paid --json']], "invoice.overdue and account.trial_ended come from the account's clock: `crm sandbox clock advance 30d`."),
    )
    .action(async (type: TriggerableEventType, _opts: unknown, cmd: Command) => {
      const { triggerCommand } = await import('../trigger/trigger.js');
      await triggerCommand(globals(cmd), type);
    });

  program
    .command('listen')
    .description('Forward the event stream of --base-url to a local URL, signed, in order, resuming after restarts')
    .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/webhooks', httpUrl)
    .option('--events <types>', 'only these types (comma-separated)')
    .option('--from <position>', 'now, or an event id to start after (default: where the last run stopped, else now)')
    .option('--state <file>', STATE_HELP, DEFAULT_STATE_FILE)
    .option('--retries <n>', 'further tries of a failed forward, with backoff, before moving on', count(0, 100), 5)
    .addHelpText(
      'after',
      `
Each event is POSTed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature)
signed with the listen secret printed at start; it stays the same across runs (kept in --state).
Events are forwarded one at a time, in order: the next goes only after the previous succeeded (2xx)
or used up its retries. A restart first forwards the events made while it was down.
${examples([
  ['crm listen --forward-to http://localhost:3000/webhooks'],
  ['crm listen --forward-to http://localhost:3000/webhooks --events deal.won,invoice.paid --from now'],
])}`,
    )
    .action(async (opts: { forwardTo: string; events?: string; from?: string; state: string; retries: number }, cmd: Command) => {
      const { listenCommand } = await import('../listen/listen.js');
      await listenCommand({ ...globals(cmd), ...opts });
    });
}
