import type { Command } from 'commander';
import { SCOPES } from '../../../domain/scopes.js';
import { listOf, rfc3339 } from '../../arg-parsers.js';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';

const run = lazyActions(() => import('./keys.js'));

/** `crm keys create|list|revoke`. Definitions only; the code is imported when a command runs. */
export function registerKeyCommands(program: Command): void {
  const keys = subcommand(
    program,
    'keys',
    'Manage API keys (Settings → API)',
    examples([['crm keys list'], ['crm keys create --name ci --scopes "leads:read deals:read"']]),
  );
  subcommand(
    keys,
    'create',
    'Create an API key; its secret is shown once',
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
    .action(run((m, g, opts: { name: string; scopes: string[]; expiresAt?: string }) => m.createKey(g, opts.name, opts.scopes, opts.expiresAt)));
  subcommand(keys, 'list', 'List API keys (never their secrets)', examples([['crm keys list'], ['crm keys list --json']])).action(run((m, g) => m.listKeys(g)));
  subcommand(
    keys,
    'revoke <id>',
    'Revoke a key; it fails from the next request on (--api-key must hold every scope it holds)',
    examples([['crm keys revoke key_01J8Z…']]),
  ).action(run((m, g, id: string) => m.revokeKey(g, id)));
}
