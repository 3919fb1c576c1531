import type { CrmClient } from '../../../client/client.js';
import { withClient, type GlobalOptions } from '../../api.js';
import { bold, dim, printJson, table, yellow } from '../../output.js';

/**
 * `crm accounts …`, `crm sandbox clock …` and `crm sandbox snapshot …` (docs/accounts.md): calls to
 * /_sandbox/accounts with the sandbox admin key. The clock and snapshots act on --account, or
 * else on the account of the key in use (GET /v1/account).
 */
interface AccountSummary {
  id: string;
  name: string;
  plan: string;
  trial_ends_at: string | null;
  created_at: string;
}

export async function createAccountCommand(
  options: GlobalOptions,
  input: { name: string; plan?: string; seed?: number | null; fixtures?: string },
): Promise<void> {
  const made = await withClient(options, (c) => c.post<AccountSummary & { api_key: string }>('/_sandbox/accounts', input));
  if (options.json) return printJson(made);
  process.stdout.write(
    `${bold('Created')} ${made.id} (${made.name}, ${made.plan} plan)\n\n  ${made.api_key}\n\n` +
      yellow("The account's admin key, shown once. Use it (CRM_API_KEY, or crm login) to work in this account.\n"),
  );
}

export async function listAccountsCommand(options: GlobalOptions): Promise<void> {
  const { data } = await withClient(options, (c) => c.get<{ data: AccountSummary[] }>('/_sandbox/accounts'));
  if (options.json) return printJson({ data });
  process.stdout.write(
    table(
      ['ID', 'NAME', 'PLAN', 'TRIAL ENDS', 'CREATED'],
      data.map((a) => [a.id, a.name, a.plan, a.trial_ends_at, a.created_at]),
    ),
  );
}

export async function deleteAccountCommand(options: GlobalOptions, id: string): Promise<void> {
  const deleted = await withClient(options, (c) => c.request<{ id: string; deleted: true }>('DELETE', `/_sandbox/accounts/${encodeURIComponent(id)}`));
  if (options.json) return printJson(deleted);
  process.stdout.write(`Deleted ${id}, its data and its snapshots.\n`);
}

type AccountOptions = GlobalOptions & { account?: string };

async function accountPath(c: CrmClient, options: AccountOptions): Promise<string> {
  const id = options.account ?? (await c.get<{ id: string }>('/v1/account')).id;
  return `/_sandbox/accounts/${encodeURIComponent(id)}`;
}

interface Clock {
  account_id: string;
  now: string;
  offset_seconds: number;
}

function printClock(options: GlobalOptions, clock: Clock, verb: string): void {
  if (options.json) return printJson(clock);
  const ahead = clock.offset_seconds ? dim(` (${clock.offset_seconds} s ahead of real time)`) : '';
  process.stdout.write(`${verb} ${clock.account_id}: ${bold(clock.now)}${ahead}\n`);
}

export async function showClockCommand(options: AccountOptions): Promise<void> {
  printClock(options, await withClient(options, async (c) => c.get<Clock>(`${await accountPath(c, options)}/clock`)), 'Clock of');
}

export async function moveClockCommand(options: AccountOptions, move: { advance: string } | { to: string }): Promise<void> {
  printClock(options, await withClient(options, async (c) => c.post<Clock>(`${await accountPath(c, options)}/clock`, move)), 'Moved the clock of');
}

export async function snapshotCommand(options: AccountOptions, action: 'save' | 'restore' | 'list' | 'delete', name?: string): Promise<void> {
  const result = await withClient(options, async (c) => {
    const path = `${await accountPath(c, options)}/snapshots`;
    if (action === 'save') return c.post<{ name: string; account_id: string }>(path, { name });
    if (action === 'restore') return c.post<{ name: string; account_id: string; took_ms: number }>(`${path}/${encodeURIComponent(name!)}/restore`);
    if (action === 'delete') return c.request<{ name: string }>('DELETE', `${path}/${encodeURIComponent(name!)}`);
    return c.get<{ data: { name: string; account_id: string; created_at: string }[] }>(path);
  });
  if (options.json) return printJson(result);
  if ('data' in result)
    process.stdout.write(
      table(
        ['NAME', 'ACCOUNT', 'SAVED'],
        result.data.map((s) => [s.name, s.account_id, s.created_at]),
      ),
    );
  else if (action === 'save') process.stdout.write(`Saved snapshot ${bold(name!)}; restore it with: crm sandbox snapshot restore ${name}\n`);
  else if ('took_ms' in result) process.stdout.write(`Restored snapshot ${bold(name!)} in ${result.took_ms} ms.\n`);
  else process.stdout.write(`Deleted snapshot ${name}.\n`);
}
