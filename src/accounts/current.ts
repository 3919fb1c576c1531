import { AsyncLocalStorage } from 'node:async_hooks';
import type { Ctx } from '../services/context.js';
import type { Account } from './account.js';

/**
 * Which account a request works on. The first hook of every request opens a scope (with the
 * default account); authentication then names the account the key belongs to. Everything below
 * the routes keeps taking a plain `Ctx`: the routes get `scopedContext`, whose fields read the
 * current account's, so no service has to know that accounts exist.
 */
interface Scope {
  account: Account;
}

const storage = new AsyncLocalStorage<Scope>();

export function runInAccountScope<T>(account: Account, fn: () => T): T {
  return storage.run({ account }, fn);
}

/** Points the current request at `account` (after authentication, or a lookup by token). */
export function enterAccount(account: Account): void {
  const scope = storage.getStore();
  if (!scope) throw new Error('enterAccount outside a request scope');
  scope.account = account;
}

/** The account of the request being served, if any. */
export function currentAccount(): Account | undefined {
  return storage.getStore()?.account;
}

export function currentAccountOr(fallback: () => Account): Account {
  return storage.getStore()?.account ?? fallback();
}

const PIN = Symbol('pin');

/**
 * The current account's own Ctx, for work that outlives the request's scope but must stay on its
 * account: a stream's listener is called from whichever request signalled it.
 */
export function pinContext(ctx: Ctx): Ctx {
  const pin = (ctx as { [PIN]?: () => Ctx })[PIN];
  return pin ? pin() : ctx;
}

/** A Ctx whose every field is the current account's (the default account's outside a request). */
export function scopedContext(current: () => Account): Ctx {
  const scoped: Ctx & { [PIN]: () => Ctx } = {
    [PIN]: () => current().ctx,
    get db() {
      return current().ctx.db;
    },
    get ids() {
      return current().ctx.ids;
    },
    get clock() {
      return current().ctx.clock;
    },
    get wallClock() {
      return current().ctx.wallClock;
    },
    get cursorSecret() {
      return current().ctx.cursorSecret;
    },
    baseUrl: () => current().ctx.baseUrl(),
  };
  return scoped;
}
