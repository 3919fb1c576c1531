import type { Command } from 'commander';
import type { GlobalOptions } from '../../api.js';
import { examples } from '../../help.js';
import { resolveInto } from '../../program-credentials.js';

/**
 * `crm login`, `crm logout` and `crm whoami`: the saved profiles, and which credentials a command
 * here would use. Definitions only; the code is imported when a command runs.
 */
export function registerLoginCommands(program: Command): void {
  program
    .command('login')
    .description('Save a base URL and API key as a profile, so no variables are needed')
    .addHelpText(
      'after',
      examples(
        [
          ['crm login --base-url http://127.0.0.1:4010 --api-key crm_test_…'],
          ['crm login --base-url https://crm.example.com --api-key … --profile prod'],
          ['crm --profile prod sync export leads', 'use that profile for one command'],
        ],
        'Saved in $XDG_CONFIG_HOME/crm/config.json (~/.config/crm/config.json), readable by you only.',
      ),
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const { loginCommand } = await import('./login.js');
      const globals = cmd.optsWithGlobals<GlobalOptions & { profile?: string }>();
      loginCommand({ baseUrl: globals.baseUrl, apiKey: globals.apiKey, profile: globals.profile, json: globals.json });
    });
  program
    .command('logout')
    .description('Forget a saved profile (--profile NAME; default: the default profile)')
    .addHelpText('after', examples([['crm logout'], ['crm logout --profile prod']]))
    .action(async (_opts: unknown, cmd: Command) => {
      const { logoutCommand } = await import('./login.js');
      const globals = cmd.optsWithGlobals<GlobalOptions & { profile?: string }>();
      logoutCommand({ profile: globals.profile, json: globals.json });
    });
  program
    .command('whoami')
    .description('Show the base URL and key (prefix only) commands use here, and where they came from')
    .addHelpText('after', examples([['crm whoami'], ['crm whoami --json', 'base_url, key prefix, source']]))
    .action(async (_opts: unknown, cmd: Command) => {
      const { whoamiCommand } = await import('./login.js');
      whoamiCommand(resolveInto(program), cmd.optsWithGlobals<GlobalOptions>().json);
    });
}
