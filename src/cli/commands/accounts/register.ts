import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import { PLANS } from '../../../domain/plans.js';
import type { GlobalOptions } from '../../api.js';
import { dayOrRfc3339, duration } from '../../arg-parsers.js';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';
import { EXIT } from '../../exit-codes.js';

/**
 * The commands around accounts (docs/accounts.md): `crm accounts create|list|delete`, `crm sandbox
 * clock`, `crm sandbox snapshot`. Definitions only; the code is imported when a command runs.
 */
const run = lazyActions(() => import('./accounts.js'));
type WithAccount = GlobalOptions & { account?: string };
const ACCOUNT = ['--account <id>', 'the account (acct_…); by default the one of the key in use'] as const;

// 'none' stays a string here: commander keeps no null from a parser.
function seedArg(value: string): number | 'none' {
  if (value === 'none') return 'none';
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('Expected a whole number, or none for an empty account.');
  return n;
}

export function registerAccountCommands(program: Command, sandbox: Command): void {
  const accounts = subcommand(
    program,
    'accounts',
    'Isolated accounts in the sandbox, each with its own data, keys and clock (needs the sandbox admin key)',
    examples([['crm accounts create --name w1 --plan pro --json'], ['crm accounts list']]),
  );
  subcommand(
    accounts,
    'create',
    'Create an account, seeded like the sandbox; prints its admin key once',
    examples(
      [['crm accounts create --name w1 --plan pro --json', 'api_key of the new account, once'], ['crm accounts create --name empty --seed none']],
      'For parallel test workers, give each its own account.',
    ),
  )
    .requiredOption('--name <name>', 'what the account is for (e.g. ci-worker-3)')
    .addOption(new Option('--plan <plan>', 'its plan').choices(PLANS).default('free'))
    .option('--seed <n>', 'seed for its data, or none for an empty account', seedArg, 1)
    .option('--fixtures <dir>', 'load clients/leads/deals/invoices.json from this folder too')
    .action(
      run((m, g, opts: { name: string; plan: string; seed: number | 'none'; fixtures?: string }) =>
        m.createAccountCommand(g, {
          name: opts.name,
          plan: opts.plan,
          seed: opts.seed === 'none' ? null : opts.seed,
          ...(opts.fixtures ? { fixtures: opts.fixtures } : {}),
        }),
      ),
    );
  subcommand(accounts, 'list', 'List the accounts, the default one first', examples([['crm accounts list'], ['crm accounts list --json']])).action(
    run((m, g) => m.listAccountsCommand(g)),
  );
  subcommand(accounts, 'delete <id>', 'Delete an account with its data, keys and snapshots', examples([['crm accounts delete acct_01J8Z…']])).action(
    run((m, g, id: string) => m.deleteAccountCommand(g, id)),
  );

  const clock = subcommand(
    sandbox,
    'clock',
    "An account's test clock: show it, or move it forward (trials end, invoices fall overdue, retries go out)",
    examples([['crm sandbox clock', "the account's time"], ['crm sandbox clock advance 7d']]),
  );
  subcommand(clock, 'show', "Print the account's time", examples([['crm sandbox clock show'], ['crm sandbox clock show --account acct_01J8Z… --json']]), {
    isDefault: true,
  })
    .option(...ACCOUNT)
    .action(run((m, g: WithAccount) => m.showClockCommand(g)));
  subcommand(
    clock,
    'advance',
    'Move the clock forward by 7d, 36h, 90m, 30s (or combined: 1d12h)',
    examples([['crm sandbox clock advance 7d', 'a trial ends'], ['crm sandbox clock advance 1d12h --account acct_01J8Z…']]),
  )
    .argument('<duration>', '7d, 36h, 90m, 30s, or combined (1d12h)', duration)
    .option(...ACCOUNT)
    .action(run((m, g: WithAccount, by: string) => m.moveClockCommand(g, { advance: by })));
  subcommand(
    clock,
    'set',
    'Move the clock forward to a day or an RFC 3339 time',
    examples([['crm sandbox clock set 2026-12-31'], ['crm sandbox clock set 2026-12-31T09:30:00Z']]),
  )
    .argument('<time>', 'a day (its first second, UTC) or an RFC 3339 time, later than the clock', dayOrRfc3339)
    .option(...ACCOUNT)
    .action(run((m, g: WithAccount, time: string) => m.moveClockCommand(g, { to: time })));

  subcommand(
    sandbox,
    'snapshot',
    "Save, restore, list or delete snapshots of an account's data (keys and webhook endpoints stay)",
    examples([['crm sandbox snapshot save before-test'], ['crm sandbox snapshot restore before-test', 'data back as saved'], ['crm sandbox snapshot list']]),
  )
    .addArgument(new Argument('<action>').choices(['save', 'restore', 'list', 'delete']))
    .argument('[name]', 'the snapshot (letters, digits, . _ -)')
    .option(...ACCOUNT)
    .action(async (action: 'save' | 'restore' | 'list' | 'delete', name: string | undefined, _opts: unknown, cmd: Command) => {
      if (action !== 'list' && !name) cmd.error(`crm sandbox snapshot ${action} needs a NAME.`, { exitCode: EXIT.usage });
      const { snapshotCommand } = await import('./accounts.js');
      await snapshotCommand(cmd.optsWithGlobals<WithAccount>(), action, name);
    });
}
