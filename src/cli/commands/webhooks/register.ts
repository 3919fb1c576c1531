import { Option, type Command } from 'commander';
import { EVENT_TYPES } from '../../../domain/event-types.js';
import type { GlobalOptions } from '../../api.js';
import { httpUrl, listOf, wholeNumber } from '../../arg-parsers.js';
import { examples } from '../../help.js';
import { sinceArg } from '../../since.js';

const globals = (cmd: Command) => cmd.optsWithGlobals<GlobalOptions>();

/** `crm webhooks …`: endpoints and their deliveries. Definitions only; the code is imported when a command runs. */
export function registerWebhookCommands(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('Manage webhook endpoints and their deliveries')
    .addHelpText('after', examples([['crm webhooks list'], ['crm webhooks create --url https://example.com/hooks --events deal.won,invoice.paid']]));
  webhooks
    .command('create')
    .description('Create an endpoint; its signing secret is shown once')
    .addHelpText(
      'after',
      examples([
        ['crm webhooks create --url https://example.com/hooks', 'every event type'],
        ['crm webhooks create --url https://example.com/hooks --events deal.won,invoice.paid --description billing'],
      ]),
    )
    .requiredOption('--url <url>', 'where deliveries are POSTed', httpUrl)
    .option('--events <types>', 'comma-separated event types, or * for all', listOf(EVENT_TYPES, 'event type', ['*']), ['*'])
    .option('--description <text>', 'what the endpoint is for')
    .action(async (opts: { url: string; events: string[]; description?: string }, cmd: Command) => {
      const { createWebhook } = await import('./webhooks.js');
      await createWebhook(globals(cmd), opts);
    });
  webhooks
    .command('list')
    .description('List endpoints')
    .addHelpText('after', examples([['crm webhooks list'], ['crm webhooks list --json']]))
    .action(async (_opts: unknown, cmd: Command) => {
      const { listWebhooks } = await import('./webhooks.js');
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
      const { updateWebhook } = await import('./webhooks.js');
      await updateWebhook(globals(cmd), id, opts);
    });
  webhooks
    .command('delete <id>')
    .description('Delete an endpoint and its delivery history')
    .addHelpText('after', examples([['crm webhooks delete we_01J8Z…']]))
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const { deleteWebhook } = await import('./webhooks.js');
      await deleteWebhook(globals(cmd), id);
    });
  webhooks
    .command('rotate-secret <id>')
    .description('New signing secret; the old one keeps signing beside it for 24 h (--expire-old: stops at once)')
    .option('--expire-old', 'the old secret stops signing now, for a secret that leaked (receivers checking only it fail from the next delivery)')
    .addHelpText('after', examples([['crm webhooks rotate-secret we_01J8Z…'], ['crm webhooks rotate-secret we_01J8Z… --expire-old']]))
    .action(async (id: string, opts: { expireOld?: boolean }, cmd: Command) => {
      const { rotateWebhookSecret } = await import('./webhooks.js');
      await rotateWebhookSecret(globals(cmd), id, opts.expireOld === true);
    });
  webhooks
    .command('deliveries <id>')
    .description('Delivery attempts to an endpoint: status, HTTP code, duration, error, next attempt')
    .addHelpText('after', examples([['crm webhooks deliveries we_01J8Z… --status failed'], ['crm webhooks deliveries we_01J8Z… --event evt_01J8Z… --json']]))
    .option('--event <id>', 'only for this event')
    .addOption(new Option('--status <status>', 'only attempts in this state').choices(['pending', 'succeeded', 'failed']))
    .option('--limit <n>', 'at most this many', wholeNumber(1, 100_000), 100)
    .action(async (id: string, opts: { event?: string; status?: string; limit: number }, cmd: Command) => {
      const { listWebhookDeliveries } = await import('./webhooks.js');
      await listWebhookDeliveries(globals(cmd), id, opts);
    });
  webhooks
    .command('recover <id>')
    .description('Re-queue the deliveries that failed for good since a time')
    .addHelpText('after', examples([['crm webhooks recover we_01J8Z… --since 2h'], ['crm webhooks recover we_01J8Z… --since 2026-11-20T00:00:00Z']]))
    .requiredOption('--since <when>', 'a duration back from now (30m, 1h, 2d) or an RFC 3339 time', sinceArg)
    .action(async (id: string, opts: { since: string }, cmd: Command) => {
      const { recoverWebhook } = await import('./webhooks.js');
      await recoverWebhook(globals(cmd), id, opts.since);
    });
}
