import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Account as OpenAccount } from '../../accounts/account.js';
import { accountView, clockView, moveClock, runDue } from '../../accounts/clock.js';
import { TRIAL_DAYS } from '../../domain/plans.js';
import type { AccountRegistry } from '../../accounts/registry.js';
import { deleteSnapshot, listSnapshots, restoreSnapshot, saveSnapshot } from '../../accounts/snapshots.js';
import { ApiError } from '../../errors.js';
import {
  Account,
  AccountCreate,
  AccountList,
  AccountParams,
  AccountWithKey,
  Clock,
  ClockMove,
  Snapshot,
  SnapshotCreate,
  SnapshotDeleted,
  SnapshotList,
  SnapshotParams,
  SnapshotRestored,
} from '../../schemas/account.js';
import { ANY_SCOPE } from '../plugins/auth.js';
import { BEARER, Deleted, errorResponses } from '../schema-docs.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Accounts (docs/accounts.md): the sandbox admin's /_sandbox/accounts (create, list, delete, the clock,
 * snapshots), and every key's own GET /v1/account and POST /v1/account/trial.
 */
export function accountRoutes(fastify: FastifyInstance, accounts: AccountRegistry, current: () => OpenAccount): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const admin = { config: { scope: '*' } };
  const base = { tags: ['Accounts'], security: BEARER };
  const registry = accounts.default.db;
  const full = (account: OpenAccount) => ({ ...accountView(account), limits: account.limits });

  app.get('/v1/account', {
    config: { scope: ANY_SCOPE },
    schema: { ...base, summary: "This key's account: its plan, trial and limits", response: { 200: Account, ...errorResponses() } },
    handler: async (request) => {
      const account = current();
      runDue(accounts, account); // a trial that ran out in real time ends now, with its event
      const { subject, scopes, expiresAt } = request.principal!;
      return { ...full(account), credential: { id: subject, scopes: [...scopes], expires_at: expiresAt === null ? null : new Date(expiresAt).toISOString() } };
    },
  });

  app.post('/v1/account/trial', {
    ...admin,
    schema: {
      ...base,
      summary: 'Start the 7-day trial of a free account (once)',
      operationId: 'account.startTrial',
      response: { 200: Account, ...errorResponses('conflict') },
    },
    handler: async () => {
      const account = current();
      const { plan, trial_used: used } = account.row;
      if (plan !== 'free') throw new ApiError('conflict', `The account is on the ${plan} plan; a trial starts from free.`);
      if (used) throw new ApiError('conflict', 'This account has had its trial.');
      accounts.update(account, { plan: 'trial', trial_ends_at: new Date(account.ctx.clock() + TRIAL_DAYS * DAY_MS).toISOString(), trial_used: 1 });
      return full(account);
    },
  });

  const path = '/_sandbox/accounts';
  app.post(path, {
    ...admin,
    schema: {
      ...base,
      summary: 'Create an account (seeded unless seed is null); its admin key is shown once',
      body: AccountCreate,
      response: { 201: AccountWithKey, ...errorResponses('validation_failed') },
    },
    handler: async (req, reply) => {
      const { account, apiKey } = accounts.create(req.body);
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ ...accountView(account), api_key: apiKey });
    },
  });
  app.get(path, {
    ...admin,
    schema: { ...base, summary: 'List the accounts (the default one first)', response: { 200: AccountList, ...errorResponses() } },
    handler: async () => ({ data: accounts.list().map(accountView) }),
  });
  app.get(`${path}/:id`, {
    ...admin,
    schema: { ...base, summary: 'Get an account', params: AccountParams, response: { 200: Account, ...errorResponses('not_found') } },
    handler: async (req) => full(accounts.get(req.params.id)),
  });
  app.delete(`${path}/:id`, {
    ...admin,
    schema: {
      ...base,
      summary: 'Delete an account and its storage',
      params: AccountParams,
      response: { 200: Deleted, ...errorResponses('not_found', 'conflict') },
    },
    handler: async (req) => {
      await accounts.delete(req.params.id);
      return { id: req.params.id, deleted: true as const };
    },
  });

  app.get(`${path}/:id/clock`, {
    ...admin,
    schema: { ...base, summary: "The account's clock", params: AccountParams, response: { 200: Clock, ...errorResponses('not_found') } },
    handler: async (req) => clockView(accounts.get(req.params.id)),
  });
  app.post(`${path}/:id/clock`, {
    ...admin,
    schema: {
      ...base,
      summary: "Move the account's clock forward",
      description:
        'What falls due on the way happens: the trial ends, open invoices past due_date become overdue, webhook retries go out, idempotency keys and events past retention expire.',
      params: AccountParams,
      body: ClockMove,
      response: { 200: Clock, ...errorResponses('not_found', 'validation_failed') },
    },
    handler: async (req) => moveClock(accounts, accounts.get(req.params.id), req.body),
  });

  app.post(`${path}/:id/snapshots`, {
    ...admin,
    schema: {
      ...base,
      summary: "Save the account's data, events, deliveries, idempotency keys and clock under a name",
      params: AccountParams,
      body: SnapshotCreate,
      response: { 201: Snapshot, ...errorResponses('not_found', 'conflict', 'validation_failed') },
    },
    handler: async (req, reply) => reply.code(201).send(saveSnapshot(registry, accounts.get(req.params.id), req.body.name)),
  });
  app.get(`${path}/:id/snapshots`, {
    ...admin,
    schema: { ...base, summary: "List the account's snapshots", params: AccountParams, response: { 200: SnapshotList, ...errorResponses('not_found') } },
    handler: async (req) => listSnapshots(registry, accounts.get(req.params.id)),
  });
  app.post(`${path}/:id/snapshots/:name/restore`, {
    ...admin,
    schema: {
      ...base,
      summary: 'Restore a snapshot (keys, OAuth apps and webhook endpoints stay as they are)',
      params: SnapshotParams,
      response: { 200: SnapshotRestored, ...errorResponses('not_found') },
    },
    handler: async (req) => restoreSnapshot(registry, accounts.get(req.params.id), req.params.name),
  });
  app.delete(`${path}/:id/snapshots/:name`, {
    ...admin,
    schema: { ...base, summary: 'Delete a snapshot', params: SnapshotParams, response: { 200: SnapshotDeleted, ...errorResponses('not_found') } },
    handler: async (req) => deleteSnapshot(registry, accounts.get(req.params.id), req.params.name),
  });
}
