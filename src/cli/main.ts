import { Command, CommanderError, Option } from 'commander';
import { VERSION } from '../version.js';
import { DEFAULT_BASE_URL } from './credentials.js';
import { CliError, printError } from './output.js';
import { resolveInto } from './program-credentials.js';
import { exitCodeOf } from './exit-codes.js';
import { registerLoginCommands } from './commands/login/register.js';
import { registerSandboxCommands } from './commands/sandbox/register.js';
import { registerKeyCommands } from './commands/keys/register.js';
import { registerUsageCommand } from './commands/usage/register.js';
import { registerMcpCommand } from './commands/mcp/register.js';
import { registerAskCommand } from './commands/ask/register.js';
import { registerOpenapiCommand } from './commands/openapi/register.js';
import { registerSdkCommands } from './commands/sdk/register.js';
import { registerVersionCommand } from './commands/version/register.js';
import { registerWebhookCommands } from './commands/webhooks/register.js';
import { registerEventCommands } from './commands/events/register.js';
import { registerTriggerCommand } from './commands/trigger/register.js';
import { registerListenCommand } from './commands/listen/register.js';
import { registerSyncCommands } from './commands/sync/register.js';
import { registerAccountCommands } from './commands/accounts/register.js';

/** Commands that do not talk to a server with stored credentials: they skip the resolution. */
const NO_CREDENTIALS = new Set(['start', 'login', 'logout', 'whoami', 'openapi']);

/**
 * The `crm` program: its global options, then each command group, defined in
 * commands/<group>/register.ts in the order `crm --help` lists them. A command's code is imported
 * when it runs, so that `crm --help` stays fast. Exit codes: 0 success, 1 failure, 2 usage error.
 */
export function buildProgram(): Command {
  const program = new Command('crm')
    .description('A local CRM API sandbox, and bulk sync for any server speaking the same API.')
    .version(VERSION, '-v, --version')
    .addOption(new Option('--base-url <url>', `API base URL (default: from the profile or .crm/sandbox.json, else ${DEFAULT_BASE_URL})`).env('CRM_BASE_URL'))
    .addOption(new Option('--api-key <key>', 'API key (Bearer token)').env('CRM_API_KEY'))
    .addOption(new Option('--profile <name>', 'use a profile saved by `crm login --profile NAME`').env('CRM_PROFILE'))
    .option('--json', 'machine-readable output: JSON on stdout', false)
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText(
      'after',
      `
Examples:
  $ crm sandbox start                     # API on http://127.0.0.1:4010 with seeded data
  $ crm sandbox start --port 0 --json     # for CI: a free port, one JSON line when ready
  $ crm openapi > openapi.json            # the OpenAPI 3.1 document
  $ crm sync import leads leads.csv       # bulk upsert; rerunning never duplicates
  $ crm sync export clients --out -       # CSV on stdout
  $ crm listen --forward-to http://localhost:3000/webhooks
  $ crm trigger deal.won                  # make the API calls that cause an event
  $ crm ask "how much is in negotiation?"  # the sandbox's assistant (needs a model provider)

Credentials, first found wins: --base-url/--api-key, CRM_BASE_URL/CRM_API_KEY, --profile or
CRM_PROFILE, .crm/sandbox.json in this folder (written by \`crm sandbox start\`), the default
profile (\`crm login\`). \`crm whoami\` shows which was used.

Environment: CRM_BASE_URL, CRM_API_KEY, CRM_PROFILE, CRM_SANDBOX_API_KEY, XDG_CONFIG_HOME, NO_COLOR.`,
    );
  program.hook('preAction', (_program, action) => {
    if (!NO_CREDENTIALS.has(action.name())) resolveInto(program);
    else if (action.name() === 'openapi') program.setOptionValueWithSource('baseUrl', program.opts().baseUrl ?? DEFAULT_BASE_URL, 'default');
  });

  registerLoginCommands(program);
  const sandbox = registerSandboxCommands(program);
  registerKeyCommands(program);
  registerUsageCommand(program);
  registerMcpCommand(program);
  registerAskCommand(program);
  registerOpenapiCommand(program);
  registerSdkCommands(program);
  registerVersionCommand(program);
  registerWebhookCommands(program);
  registerEventCommands(program);
  registerTriggerCommand(program);
  registerListenCommand(program);
  registerSyncCommands(program);
  registerAccountCommands(program, sandbox);

  return program;
}

export async function main(argv: string[]): Promise<number> {
  // `crm … | head` closes the pipe early: that is the reader's choice, not our failure.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const program = buildProgram();
  // Subcommands copy their settings when they are made, so each needs its own override;
  // otherwise commander exits with 1 from `crm sandbox start --port abc` instead of our 2.
  const overrideExit = (command: Command): void => {
    command.exitOverride();
    command.commands.forEach(overrideExit);
  };
  overrideExit(program);
  const json = argv.includes('--json');
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    // commander has printed its own message (or the help) already.
    if (error instanceof CommanderError) return exitCodeOf(error);
    return printError(error instanceof Error ? error : new CliError(String(error)), json);
  }
}
