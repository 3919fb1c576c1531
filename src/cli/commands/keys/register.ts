import type { Command } from 'commander';
import { SCOPES } from '../../../domain/scopes.js';
import type { GlobalOptions } from '../../api.js';
import { listOf, rfc3339 } from '../../arg-parsers.js';
import { examples } from '../../help.js';

/** `crm keys create|list|revoke`. Definitions only; the code is imported when a command runs. */
export function registerKeyCommands(program: Command): void {
  const keys = program
    .command('keys')
    .description('Manage API keys (Settings → API)')
    .addHelpText('after', examples([['crm keys list'], ['crm keys create --name ci --scopes "leads:read deals:read"']]));
  keys
    .command('create')
    .description('Create an API key; its secret is shown once')
    .addHelpText(
      'after',
      examples([
        ['crm keys create --name ci --scopes "leads:read deals:read"'],
        ['crm keys create --name importer --scopes leads:write,clients:write --expires-at 2027-01-01T00:00:00Z'],
        ['crm keys create --name full --json', 'scope *; the secret in the JSON'],
      ]),
    )
    .requiredOption('--name <name>', 'what the key is for')
    .option(
      '--scopes <scopes>',
      `comma- or space-separated scopes, or * for all (${SCOPES.join(' ')}); at most those of --api-key`,
      listOf(SCOPES, 'scope', ['*']),
      ['*'],
    )
    .option('--expires-at <time>', 'RFC 3339 time after which the key stops working (required, and no later than its own, when --api-key expires)', rfc3339)
    .action(async (opts: { name: string; scopes: string[]; expiresAt?: string }, cmd: Command) => {
      const { createKey } = await import('./keys.js');
      await createKey(cmd.optsWithGlobals<GlobalOptions>(), opts.name, opts.scopes, opts.expiresAt);
    });
  keys
    .command('list')
    .description('List API keys (never their secrets)')
    .addHelpText('after', examples([['crm keys list'], ['crm keys list --json']]))
    .action(async (_opts: unknown, cmd: Command) => {
      const { listKeys } = await import('./keys.js');
      await listKeys(cmd.optsWithGlobals<GlobalOptions>());
    });
  keys
    .command('revoke <id>')
    .description('Revoke a key; it fails from the next request on (--api-key must hold every scope it holds)')
    .addHelpText('after', examples([['crm keys revoke key_01J8Z…']]))
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const { revokeKey } = await import('./keys.js');
      await revokeKey(cmd.optsWithGlobals<GlobalOptions>(), id);
    });
}
