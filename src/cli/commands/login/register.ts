import type { Command } from 'commander';
import type { GlobalOptions } from '../../api.js';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';
import { resolveInto } from '../../program-credentials.js';

const run = lazyActions(() => import('./login.js'));
type WithProfile = GlobalOptions & { profile?: string };

/**
 * `crm login`, `crm logout` and `crm whoami`: the saved profiles, and which credentials a command
 * here would use. Definitions only; the code is imported when a command runs.
 */
export function registerLoginCommands(program: Command): void {
  subcommand(
    program,
    'login',
    'Save a base URL and API key as a profile, so no variables are needed',
    examples(
      [
        ['crm login --base-url http://127.0.0.1:4010 --api-key crm_test_…'],
        ['crm login --base-url https://crm.example.com --api-key … --profile prod'],
        ['crm --profile prod sync export leads', 'use that profile for one command'],
      ],
      'Saved in $XDG_CONFIG_HOME/crm/config.json (~/.config/crm/config.json), readable by you only.',
    ),
  ).action(run((m, g: WithProfile) => m.loginCommand({ baseUrl: g.baseUrl, apiKey: g.apiKey, profile: g.profile, json: g.json })));
  subcommand(
    program,
    'logout',
    'Forget a saved profile (--profile NAME; default: the default profile)',
    examples([['crm logout'], ['crm logout --profile prod']]),
  ).action(run((m, g: WithProfile) => m.logoutCommand({ profile: g.profile, json: g.json })));
  subcommand(
    program,
    'whoami',
    'Show the base URL and key (prefix only) commands use here, and where they came from',
    examples([['crm whoami'], ['crm whoami --json', 'base_url, key prefix, source']]),
  ).action(run((m, g) => m.whoamiCommand(resolveInto(program), g.json)));
}
