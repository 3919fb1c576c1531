import { z } from 'zod';
import { buildOnce, lazySchema } from './lazy.js';
import { PLANS } from '../domain/plans.js';
import { Label, Time } from './common.js';

/** Accounts, their plans, clocks and snapshots (docs/accounts.md). */
const Limit = buildOnce(() => z.object({ limit: z.number().int(), window_seconds: z.number().int() }).meta({ id: 'PlanLimit' }).nullable());

const AccountSummary = lazySchema(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      plan: z.enum(PLANS),
      trial_ends_at: z.string().nullable(),
      created_at: z.string(),
    })
    .meta({ id: 'AccountSummary' }),
);

export const Account = lazySchema(() =>
  AccountSummary.unwrap()
    .extend({
      limits: z.object({
        rate_limit: Limit(),
        quota: Limit(),
        webhook_endpoints: z.number().int().nullable().describe('null: no limit'),
        bulk_records: z.number().int().describe('Records per bulk call'),
      }),
      credential: z
        .object({
          id: z.string().describe('The API key or access token id'),
          scopes: z.array(z.string()),
          expires_at: z.string().nullable(),
        })
        .optional()
        .describe('GET /v1/account: the credential that asked, and what it may do (crm mcp lists the tools it allows)'),
    })
    .meta({ id: 'Account' }),
);

export const AccountCreate = lazySchema(() =>
  z
    .strictObject({
      name: Label(1, 100),
      plan: z.enum(PLANS).optional().describe('free by default'),
      seed: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .nullable()
        .optional()
        .describe('As --seed (1 by default); null for an empty account'),
      fixtures: z.string().min(1).max(4096).optional().describe("A fixtures file on the sandbox's machine, loaded after the seed"),
    })
    .meta({ id: 'AccountCreate', examples: [{ name: 'ci-worker-1', plan: 'pro' }] }),
);

export const AccountWithKey = lazySchema(() =>
  AccountSummary.unwrap()
    .extend({ api_key: z.string().describe("The account's admin key, shown once") })
    .meta({ id: 'AccountWithKey' }),
);

export const AccountList = lazySchema(() => z.object({ data: z.array(AccountSummary.unwrap()) }).meta({ id: 'AccountList' }));

export const Clock = lazySchema(() =>
  z.object({ account_id: z.string(), now: z.string(), offset_seconds: z.number().int().describe('How far ahead of real time') }).meta({ id: 'Clock' }),
);

export const ClockMove = lazySchema(() =>
  z
    .strictObject({
      advance: z.string().max(40).optional().describe('A duration: 7d, 36h, 90m, 30s, or combined (1d12h)'),
      to: Time().optional().describe('An RFC 3339 time, not before the clock'),
    })
    .meta({ id: 'ClockMove', examples: [{ advance: '7d' }] }),
);

export const SnapshotCreate = lazySchema(() =>
  z.strictObject({ name: z.string().min(1).max(64) }).meta({ id: 'SnapshotCreate', examples: [{ name: 'seeded' }] }),
);
export const Snapshot = lazySchema(() => z.object({ name: z.string(), account_id: z.string(), created_at: z.string() }).meta({ id: 'Snapshot' }));
export const SnapshotDeleted = lazySchema(() => z.object({ name: z.string(), deleted: z.literal(true) }).meta({ id: 'SnapshotDeleted' }));
export const SnapshotList = lazySchema(() => z.object({ data: z.array(Snapshot.unwrap()) }).meta({ id: 'SnapshotList' }));
export const SnapshotRestored = lazySchema(() =>
  z.object({ name: z.string(), account_id: z.string(), restored: z.literal(true), took_ms: z.number() }).meta({ id: 'SnapshotRestored' }),
);

export const AccountParams = lazySchema(() => z.object({ id: z.string().max(100) }));
export const SnapshotParams = lazySchema(() => z.object({ id: z.string().max(100), name: z.string().max(100) }));
