import { Command, CommanderError, Option } from 'commander';
import { VERSION } from '../version.js';
import { SCOPES } from '../domain/scopes.js';
import type { GlobalOptions } from './api.js';
import { DEFAULT_BASE_URL, resolveCredentials, type Credentials } from './credentials.js';
import { CliError, printError, printJson, printWarning } from './output.js';
import { registerEventCommands } from './commands/events/register.js';
import { registerSyncCommands } from './commands/sync/register.js';
import { registerAccountCommands } from './commands/accounts/register.js';
import { registerSandboxCommands } from './commands/sandbox/register.js';
import { listOf, rfc3339 } from './arg-parsers.js';
import { examples } from './help.js';

/** Commands that do not talk to a server with stored credentials: they skip the resolution. */
const NO_CREDENTIALS = new Set(['start', 'login', 'logout', 'whoami', 'openapi']);

/**
 * Fills --base-url and --api-key from the one resolver (flags, variables, profile, .crm/sandbox.json,
 * default profile; API.md §14) before any command runs, so every command, `crm mcp` and `crm listen`
 * use the same credentials.
 */
function resolveInto(program: Command): Credentials {
  const source = (name: string) => program.getOptionValueSource(name);
  const opts = program.opts<{ baseUrl?: string; apiKey?: string; profile?: string }>();
  const credentials = resolveCredentials({
    flags: {
      ...(source('baseUrl') === 'cli' ? { baseUrl: opts.baseUrl } : {}),
      ...(source('apiKey') === 'cli' ? { apiKey: opts.apiKey } : {}),
    },
    env: process.env,
    ...(opts.profile ? { profile: opts.profile } : {}),
    cwd: process.cwd(),
  });
  for (const warning of credentials.warnings) printWarning(warning);
  program.setOptionValueWithSource('baseUrl', credentials.baseUrl, source('baseUrl') ?? 'config');
  if (credentials.apiKey) program.setOptionValueWithSource('apiKey', credentials.apiKey, source('apiKey') === 'cli' ? 'cli' : 'config');
  if (credentials.noKeyReason) program.setOptionValueWithSource('noKeyReason', credentials.noKeyReason, 'config');
  return credentials;
}

/**
 * The `crm` program. Each command is a small function in its own file, imported when it runs so
 * that `crm --help` stays fast. Exit codes: 0 success, 1 failure, 2 usage error.
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

Credentials, first found wins: --base-url/--api-key, CRM_BASE_URL/CRM_API_KEY, --profile or
CRM_PROFILE, .crm/sandbox.json in this folder (written by \`crm sandbox start\`), the default
profile (\`crm login\`). \`crm whoami\` shows which was used.

Environment: CRM_BASE_URL, CRM_API_KEY, CRM_PROFILE, CRM_SANDBOX_API_KEY, XDG_CONFIG_HOME, NO_COLOR.`,
    );
  program.hook('preAction', (_program, action) => {
    if (!NO_CREDENTIALS.has(action.name())) resolveInto(program);
    else if (action.name() === 'openapi') program.setOptionValueWithSource('baseUrl', program.opts().baseUrl ?? DEFAULT_BASE_URL, 'default');
  });

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
      const { loginCommand } = await import('./commands/login/login.js');
      const globals = cmd.optsWithGlobals<GlobalOptions & { profile?: string }>();
      loginCommand({ baseUrl: globals.baseUrl, apiKey: globals.apiKey, profile: globals.profile, json: globals.json });
    });
  program
    .command('logout')
    .description('Forget a saved profile (--profile NAME; default: the default profile)')
    .addHelpText('after', examples([['crm logout'], ['crm logout --profile prod']]))
    .action(async (_opts: unknown, cmd: Command) => {
      const { logoutCommand } = await import('./commands/login/login.js');
      const globals = cmd.optsWithGlobals<GlobalOptions & { profile?: string }>();
      logoutCommand({ profile: globals.profile, json: globals.json });
    });
  program
    .command('whoami')
    .description('Show the base URL and key (prefix only) commands use here, and where they came from')
    .addHelpText('after', examples([['crm whoami'], ['crm whoami --json', 'base_url, key prefix, source']]))
    .action(async (_opts: unknown, cmd: Command) => {
      const { whoamiCommand } = await import('./commands/login/login.js');
      whoamiCommand(resolveInto(program), cmd.optsWithGlobals<GlobalOptions>().json);
    });

  const sandbox = registerSandboxCommands(program);

  const keys = program
    .command('keys')
    .description('Manage API keys (Settings → API)')
    .addHelpText('after', examples([['crm keys list'], ['crm keys create --name ci --scopes "leads:read deals:read"']]));
  keys
    .command('create')
    .description('Create an API key; its secret is shown once')
    .addHelpText('after', examples([
        ['crm keys create --name ci --scopes "leads:read deals:read"'],
        ['crm keys create --name importer --scopes leads:write,clients:write --expires-at 2027-01-01T00:00:00Z'],
        ['crm keys create --name full --json', 'scope *; the secret in the JSON'],
      ]))
    .requiredOption('--name <name>', 'what the key is for')
    .option('--scopes <scopes>', `comma- or space-separated scopes, or * for all (${SCOPES.join(' ')}); at most those of --api-key`, listOf(SCOPES, 'scope', ['*']), ['*'])
    .option('--expires-at <time>', 'RFC 3339 time after which the key stops working (required, and no later than its own, when --api-key expires)', rfc3339)
    .action(async (opts: { name: string; scopes: string[]; expiresAt?: string }, cmd: Command) => {
      const { createKey } = await import('./commands/keys/keys.js');
      await createKey(cmd.optsWithGlobals<GlobalOptions>(), opts.name, opts.scopes, opts.expiresAt);
    });
  keys
    .command('list')
    .description('List API keys (never their secrets)')
    .addHelpText('after', examples([['crm keys list'], ['crm keys list --json']]))
    .action(async (_opts: unknown, cmd: Command) => {
      const { listKeys } = await import('./commands/keys/keys.js');
      await listKeys(cmd.optsWithGlobals<GlobalOptions>());
    });
  keys
    .command('revoke <id>')
    .description('Revoke a key; it fails from the next request on (--api-key must hold every scope it holds)')
    .addHelpText('after', examples([['crm keys revoke key_01J8Z…']]))
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const { revokeKey } = await import('./commands/keys/keys.js');
      await revokeKey(cmd.optsWithGlobals<GlobalOptions>(), id);
    });

  program
    .command('usage')
    .description("Today's requests by key, endpoint and status, the quota, and the request rate")
    .addHelpText('after', examples([['crm usage'], ['crm usage --watch', 'redraw every second']]))
    .option('--watch', 'refresh every second (in place on a terminal)', false)
    .action(async (opts: { watch: boolean }, cmd: Command) => {
      const { usageCommand } = await import('./commands/usage/usage.js');
      await usageCommand({ ...cmd.optsWithGlobals<GlobalOptions>(), watch: opts.watch });
    });

  program
    .command('mcp')
    .description('Run the MCP server over stdio against --base-url (for AI assistants)')
    .addHelpText(
      'after',
      `
Configure your assistant to run it, for example:
  {"mcpServers": {"crm": {"command": "npx", "args": ["-y", "crm-sandbox", "mcp"],
    "env": {"CRM_BASE_URL": "http://127.0.0.1:4010", "CRM_API_KEY": "crm_test_…"}}}}
Only the protocol is written to stdout; messages go to stderr.
${examples([['crm mcp', 'in the folder of a running sandbox'], ['crm mcp --base-url http://127.0.0.1:4010 --api-key crm_test_…']])}`,
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const { mcpCommand } = await import('./commands/mcp/mcp.js');
      await mcpCommand(cmd.optsWithGlobals<GlobalOptions>());
    });

  program
    .command('openapi')
    .description('Print the OpenAPI 3.1 document (the same as GET /v1/openapi.json)')
    .addHelpText('after', examples([['crm openapi > openapi.json']]))
    .action(async (_opts: unknown, cmd: Command) => {
      const { openapiCommand } = await import('./commands/openapi/openapi.js');
      await openapiCommand(cmd.optsWithGlobals<GlobalOptions>());
    });

  program
    .command('sdk')
    .description('The SDKs (TypeScript, Python, Go, PHP) generated from the OpenAPI document')
    .addHelpText('after', examples([['crm sdk generate --lang python --out sdks/python']]))
    .command('generate')
    .description("Write an SDK's generated resources and models into DIR, beside its hand-written core")
    .requiredOption('--lang <language>', 'typescript, python, go or php')
    .requiredOption('--out <dir>', 'the SDK folder, e.g. sdks/python')
    .option('--check', 'write nothing; exit 1 when DIR differs from a fresh generation', false)
    .addHelpText('after', examples([['crm sdk generate --lang python --out sdks/python'], ['crm sdk generate --lang go --out sdks/go --check', 'in CI: exit 1 when stale']]))
    .action(async (opts: { lang: string; out: string; check: boolean }, cmd: Command) => {
      const { sdkGenerateCommand } = await import('./commands/sdk/sdk.js');
      await sdkGenerateCommand({ ...opts, json: cmd.optsWithGlobals<GlobalOptions>().json });
    });

  program
    .command('version')
    .description('Print the version of crm and of the Node.js it runs on (the single binary embeds its own)')
    .addHelpText('after', examples([['crm version'], ['crm version --json']]))
    .action((_opts: unknown, cmd: Command) => {
      const about = { version: VERSION, node: process.version, platform: process.platform, arch: process.arch };
      if (cmd.optsWithGlobals<GlobalOptions>().json) printJson(about);
      else process.stdout.write(`crm ${about.version} (Node.js ${about.node}, ${about.platform}-${about.arch})\n`);
    });

  registerEventCommands(program);
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
    if (error instanceof CommanderError) {
      // Help and version are successes; everything commander refuses is a usage error.
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? 0 : 2;
    }
    return printError(error instanceof Error ? error : new CliError(String(error)), json);
  }
}
