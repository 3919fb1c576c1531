import type { RawResponse } from './raw-http.js';
import { ACCOUNTS, type AccountName, type Powers } from './powers.js';
import { tableCounts } from './state.js';

/**
 * What a request did besides its status, observed from outside: the guard headers on its answer,
 * whether the request log of each account holds it, how much it added to each account's usage,
 * whether a retry with its Idempotency-Key is a replay, and (around refused requests) the user-data
 * tables. The path fuzzer compares these between a path and its canonical form.
 */

/** Headers the hooks add (rate limits on /v1, the dashboard's CSP and friends, no-store, the auth challenge). */
export const GUARD_HEADERS = [
  'ratelimit-policy',
  'ratelimit',
  'x-ratelimit-remaining',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'cache-control',
  'www-authenticate',
] as const;

export interface Snapshot {
  /** Requests counted in the account's usage for the day, the observer's own left out. */
  usage: Record<AccountName, { day: string; requests: number }>;
  tables?: Record<AccountName, Record<string, number>>;
}

export interface Observed {
  status: number;
  guards: string[];
  /** Accounts whose request log holds the request. */
  loggedIn: AccountName[];
  /** Requests added to each account's usage; undefined when the usage day turned meanwhile (a moved clock). */
  usage: Partial<Record<AccountName, number>>;
  /** A second send with the same Idempotency-Key was a replay (writes sent with a key only). */
  replayed?: boolean;
  /** For a refused request: a user-data table it changed anyway. */
  changedTable?: string;
}

async function observerGet(baseUrl: string, powers: Powers, account: AccountName, path: string): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${powers.accounts[account].observerKey}` } });
}

async function usageOf(baseUrl: string, powers: Powers, account: AccountName): Promise<Snapshot['usage'][AccountName]> {
  const res = await observerGet(baseUrl, powers, account, '/v1/usage');
  if (!res.ok) throw new Error(`fuzz: GET /v1/usage answered ${res.status} to the observer of the ${account} account`);
  const body = (await res.json()) as { day: string; totals: { requests: number }; by_key: { key_id: string; requests: number }[] };
  const own = body.by_key.find((k) => k.key_id === powers.accounts[account].observerKeyId)?.requests ?? 0;
  return { day: body.day, requests: body.totals.requests - own };
}

export async function snapshot(baseUrl: string, powers: Powers, withTables: boolean): Promise<Snapshot> {
  const [main, other] = await Promise.all(ACCOUNTS.map((account) => usageOf(baseUrl, powers, account)));
  const usage = { default: main!, other: other! };
  if (!withTables) return { usage };
  const tables = {} as NonNullable<Snapshot['tables']>;
  for (const account of ACCOUNTS) tables[account] = tableCounts(powers.accounts[account].db);
  return { usage, tables };
}

/**
 * Observes a sent request's effects; `before` was taken right before it was sent. Returns them and
 * the snapshot after (with table counts if `withTables`), which stands as the next request's `before`
 * when nothing else is sent in between.
 */
export async function observe(
  baseUrl: string,
  powers: Powers,
  res: RawResponse,
  before: Snapshot,
  withTables: boolean,
): Promise<{ observed: Observed; after: Snapshot }> {
  const requestId = res.headers['x-request-id'];
  const isLogged = async (account: AccountName): Promise<boolean> => {
    if (typeof requestId !== 'string') return false;
    const found = await observerGet(baseUrl, powers, account, `/v1/request_logs/${encodeURIComponent(requestId)}`);
    await found.body?.cancel();
    return found.status === 200;
  };
  // The observer's own requests are left out of the usage it reads, so these may run side by side.
  const [after, ...logged] = await Promise.all([snapshot(baseUrl, powers, withTables), ...ACCOUNTS.map(isLogged)]);
  const loggedIn = ACCOUNTS.filter((_, i) => logged[i]);
  const usage: Observed['usage'] = {};
  for (const account of ACCOUNTS) {
    if (after.usage[account].day === before.usage[account].day) usage[account] = after.usage[account].requests - before.usage[account].requests;
  }
  const observed: Observed = { status: res.status, guards: GUARD_HEADERS.filter((h) => res.headers[h] !== undefined), loggedIn, usage };
  if (before.tables && after.tables && res.status >= 400 && res.status < 500) {
    for (const account of ACCOUNTS) {
      for (const [table, n] of Object.entries(after.tables[account])) {
        if (before.tables[account][table] !== n) observed.changedTable ??= `${account} account's ${table} went from ${before.tables[account][table]} to ${n}`;
      }
    }
  }
  return { observed, after };
}

/**
 * The rule for a path that is not canonical: either exactly what the canonical path got (status,
 * guard headers, request log, usage, idempotency) or a 4xx that changed nothing; never a 5xx.
 */
export function differences(canonical: Observed, mutated: Observed): string[] {
  if (mutated.status >= 500) return [`answered ${mutated.status}`];
  if (mutated.status >= 400 && mutated.status < 500) return mutated.changedTable ? [`refused with ${mutated.status}, yet the ${mutated.changedTable}`] : [];
  const found: string[] = [];
  if (mutated.status !== canonical.status) found.push(`answered ${mutated.status} where the canonical path answered ${canonical.status}`);
  const missing = canonical.guards.filter((h) => !mutated.guards.includes(h));
  const extra = mutated.guards.filter((h) => !canonical.guards.includes(h));
  if (missing.length) found.push(`no ${missing.join(', ')} header (the canonical path has it)`);
  if (extra.length) found.push(`a ${extra.join(', ')} header the canonical path lacks`);
  if (canonical.loggedIn.join() !== mutated.loggedIn.join()) {
    found.push(
      `request log: ${mutated.loggedIn.join(' and ') || 'no'} account where the canonical path is logged in ${canonical.loggedIn.join(' and ') || 'none'}`,
    );
  }
  for (const account of ACCOUNTS) {
    const [c, m] = [canonical.usage[account], mutated.usage[account]];
    if (c !== undefined && m !== undefined && c !== m) found.push(`usage of the ${account} account: +${m} where the canonical path counts +${c}`);
  }
  if (canonical.replayed !== undefined && mutated.replayed !== canonical.replayed) {
    found.push(
      mutated.replayed
        ? 'a retry with its Idempotency-Key replayed, which the canonical path does not'
        : 'a retry with its Idempotency-Key ran again (not replayed), where the canonical path replays',
    );
  }
  return found;
}
