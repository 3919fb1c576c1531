import { Option, type Command, InvalidArgumentError } from 'commander';
import { parsePolicy } from '../../../domain/rate-limit.js';
import type { GlobalOptions } from '../../api.js';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';

const run = lazyActions(() => import('./sandbox.js'));

/**
 * `crm sandbox start|wait|reset` and `crm dashboard` (docs/sandbox.md, docs/dashboard.md). Definitions only; each
 * command's code is imported when it runs, so --help stays fast. Returns the `sandbox` command, to
 * which accounts/register.ts adds `clock` and `snapshot`.
 */
function integerIn(min: number, max: number, hint: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`Expected a whole number ${min}..${max}${hint}.`);
    return n;
  };
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 1000) throw new InvalidArgumentError('Expected a number above 0, at most 1000.');
  return n;
}

/** Checks a policy like 100/1s at parse time, so a typo is a usage error (exit 2). */
function policyText(value: string): string {
  try {
    parsePolicy('check', value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  return value;
}

export function registerSandboxCommands(program: Command): Command {
  const sandbox = subcommand(
    program,
    'sandbox',
    'Run the local CRM sandbox',
    examples([['crm sandbox start'], ['crm sandbox start --port 0 --db :memory: --json', 'for CI'], ['crm sandbox reset', 'fresh data, same keys']]),
  );

  subcommand(
    sandbox,
    'start',
    'Start the sandbox API on SQLite (seeded on first start)',
    `
The admin key (all scopes) is created and printed on an empty database; --api-key K (or
CRM_SANDBOX_API_KEY) registers K instead. With --json, one line is printed when ready:
  {"base_url":"http://127.0.0.1:41234","listening_on":"127.0.0.1:41234","api_key":"crm_test_…","db":".crm/sandbox.db","pid":1234}
--host 0.0.0.0 (or any address but loopback) lets other machines reach the sandbox: it warns on stderr.
The dashboard's assistant talks to the model you name (docs/assistant.md); its key is read from
CRM_ASSISTANT_API_KEY only, and stays in the server.
SIGINT or SIGTERM stops it cleanly. Several sandboxes may run from one folder (one per --db);
.crm/sandbox.json names each, and crm commands here use the live one started first.
${examples([
  ['crm sandbox start', 'http://127.0.0.1:4010, .crm/sandbox.db'],
  ['crm sandbox start --port 0 --db :memory: --json', 'for CI: a free port, a throwaway database'],
  ['crm sandbox start --no-seed --fixtures fixtures/example', 'only your own records'],
  ['crm sandbox start --rate-limit 10/1s', 'try your client against a tight limit'],
  ['crm sandbox start --assistant-url http://127.0.0.1:11434/v1 --assistant-model llama3.1', 'the assistant on a local Ollama'],
])}`,
  )
    .option('--port <port>', 'port to listen on; 0 picks a free one', integerIn(0, 65535, ' (0 picks a free port)'), 4010)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--db <path>', "SQLite file, or ':memory:' for a throwaway database", '.crm/sandbox.db')
    .option('--seed <n>', 'seed for the generated data (same seed, same data and ids)', integerIn(0, 2 ** 32 - 1, ''), 1)
    .option('--no-seed', 'start with no generated data')
    .option('--fixtures <dir>', 'load clients/leads/deals/invoices.json from this folder')
    .option('--rate-limit <n/window>', 'requests per key or token per window, e.g. 100/1s or 600/1m; 0 for none', policyText, '100/1s')
    .option('--quota <n/window>', 'requests per key or token per quota period, e.g. 100000/1d; 0 for none', policyText, '100000/1d')
    .option('--webhook-time-scale <factor>', 'multiply the webhook retry schedule (0.001 turns 5 min into 0.3 s, for tests)', positiveNumber, 1)
    .addOption(new Option('--log-level <level>', 'server log level (to stderr)').choices(['silent', 'error', 'warn', 'info', 'debug']).default('error'))
    .option('--assistant-url <url>', "the assistant's model provider, an OpenAI-compatible or Anthropic API base (or CRM_ASSISTANT_URL)")
    .option('--assistant-model <name>', 'the model the assistant uses (or CRM_ASSISTANT_MODEL)')
    .addOption(new Option('--assistant-provider <protocol>', 'the protocol it speaks (or CRM_ASSISTANT_PROVIDER)').choices(['openai', 'anthropic']))
    .action(
      async (
        opts: {
          port: number;
          host: string;
          db: string;
          seed: number | false;
          fixtures?: string;
          rateLimit: string;
          quota: string;
          logLevel: string;
          webhookTimeScale: number;
          assistantUrl?: string;
          assistantModel?: string;
          assistantProvider?: string;
        },
        cmd: Command,
      ) => {
        const globals = cmd.optsWithGlobals<GlobalOptions>();
        const { startCommand } = await import('./sandbox.js');
        // Only an explicit --api-key or CRM_SANDBOX_API_KEY becomes the admin key: CRM_API_KEY may
        // hold a key for a real server, which must not be registered in a sandbox by accident.
        const apiKey = cmd.getOptionValueSourceWithGlobals('apiKey') === 'cli' ? globals.apiKey : process.env.CRM_SANDBOX_API_KEY;
        await startCommand({
          ...opts,
          json: globals.json,
          ...(apiKey ? { apiKey } : {}),
        });
      },
    );

  subcommand(
    sandbox,
    'wait',
    'Wait until the sandbox at --base-url answers /healthz (for CI steps)',
    examples([['crm sandbox wait --base-url http://127.0.0.1:4010 --timeout 60']]),
  )
    .option('--timeout <seconds>', 'give up after this long (exit 1)', integerIn(1, 3600, ''), 30)
    .option('--interval <ms>', 'time between polls', integerIn(10, 10_000, ''), 100)
    .action(run((m, g, opts: { timeout: number; interval: number }) => m.waitCommand({ ...g, ...opts })));

  subcommand(
    sandbox,
    'reset',
    'Delete all data in a running sandbox and seed it again (API keys stay valid)',
    examples([['crm sandbox reset'], ['crm sandbox reset --base-url http://127.0.0.1:4011']]),
  ).action(run((m, g) => m.resetCommand(g)));

  subcommand(
    program,
    'dashboard',
    'Print a fresh sign-in link to the web dashboard (single use, 15 minutes; needs the admin key)',
    examples([['crm dashboard'], ['crm dashboard --json', 'dashboard_url, expires_at']]),
  ).action(run((m, g) => m.dashboardCommand(g)));

  return sandbox;
}
