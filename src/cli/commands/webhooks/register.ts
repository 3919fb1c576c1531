import { Option, type Command } from 'commander';
import { EVENT_TYPES } from '../../../domain/event-types.js';
import { httpUrl, listOf, wholeNumber } from '../../arg-parsers.js';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';
import { sinceArg } from '../../since.js';

const run = lazyActions(() => import('./webhooks.js'));

/** `crm webhooks …`: endpoints and their deliveries. Definitions only; the code is imported when a command runs. */
export function registerWebhookCommands(program: Command): void {
  const webhooks = subcommand(
    program,
    'webhooks',
    'Manage webhook endpoints and their deliveries',
    examples([['crm webhooks list'], ['crm webhooks create --url https://example.com/hooks --events deal.won,invoice.paid']]),
  );
  subcommand(
    webhooks,
    'create',
    'Create an endpoint; its signing secret is shown once',
    examples([
      ['crm webhooks create --url https://example.com/hooks', 'every event type'],
      ['crm webhooks create --url https://example.com/hooks --events deal.won,invoice.paid --description billing'],
    ]),
  )
    .requiredOption('--url <url>', 'where deliveries are POSTed', httpUrl)
    .option('--events <types>', 'comma-separated event types, or * for all', listOf(EVENT_TYPES, 'event type', ['*']), ['*'])
    .option('--description <text>', 'what the endpoint is for')
    .action(run((m, g, opts: { url: string; events: string[]; description?: string }) => m.createWebhook(g, opts)));
  subcommand(webhooks, 'list', 'List endpoints', examples([['crm webhooks list'], ['crm webhooks list --json']])).action(run((m, g) => m.listWebhooks(g)));
  subcommand(
    webhooks,
    'update <id>',
    'Change an endpoint; --enable sends the deliveries held while it was disabled',
    examples([['crm webhooks update we_01J8Z… --disable', 'deliveries wait'], ['crm webhooks update we_01J8Z… --enable --events "*"']]),
  )
    .option('--url <url>', 'new URL', httpUrl)
    .option('--events <types>', 'comma-separated event types, or *', listOf(EVENT_TYPES, 'event type', ['*']))
    .option('--description <text>', 'new description')
    .option('--enable', 'enable it')
    .option('--disable', 'disable it (deliveries wait)')
    .action(
      run((m, g, id: string, opts: { url?: string; events?: string[]; description?: string; enable?: boolean; disable?: boolean }) =>
        m.updateWebhook(g, id, opts),
      ),
    );
  subcommand(webhooks, 'delete <id>', 'Delete an endpoint and its delivery history', examples([['crm webhooks delete we_01J8Z…']])).action(
    run((m, g, id: string) => m.deleteWebhook(g, id)),
  );
  subcommand(
    webhooks,
    'rotate-secret <id>',
    'New signing secret; the old one keeps signing beside it for 24 h (--expire-old: stops at once)',
    examples([['crm webhooks rotate-secret we_01J8Z…'], ['crm webhooks rotate-secret we_01J8Z… --expire-old']]),
  )
    .option('--expire-old', 'the old secret stops signing now, for a secret that leaked (receivers checking only it fail from the next delivery)')
    .action(run((m, g, id: string, opts: { expireOld?: boolean }) => m.rotateWebhookSecret(g, id, opts.expireOld === true)));
  subcommand(
    webhooks,
    'deliveries <id>',
    'Delivery attempts to an endpoint: status, HTTP code, duration, error, next attempt',
    examples([['crm webhooks deliveries we_01J8Z… --status failed'], ['crm webhooks deliveries we_01J8Z… --event evt_01J8Z… --json']]),
  )
    .option('--event <id>', 'only for this event')
    .addOption(new Option('--status <status>', 'only attempts in this state').choices(['pending', 'succeeded', 'failed']))
    .option('--limit <n>', 'at most this many', wholeNumber(1, 100_000), 100)
    .action(run((m, g, id: string, opts: { event?: string; status?: string; limit: number }) => m.listWebhookDeliveries(g, id, opts)));
  subcommand(
    webhooks,
    'recover <id>',
    'Re-queue the deliveries that failed for good since a time',
    examples([['crm webhooks recover we_01J8Z… --since 2h'], ['crm webhooks recover we_01J8Z… --since 2026-11-20T00:00:00Z']]),
  )
    .requiredOption('--since <when>', 'a duration back from now (30m, 1h, 2d) or an RFC 3339 time', sinceArg)
    .action(run((m, g, id: string, opts: { since: string }) => m.recoverWebhook(g, id, opts.since)));
}
