import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../src/services/api-keys.js';
import { createContext, type Ctx } from '../../src/services/context.js';
import { createLoginToken, LOGIN_TTL_MS, SESSION_TTL_MS, sessionPrincipal, signInWithKey, signInWithToken } from '../../src/services/dashboard-sessions.js';
import { openDb } from '../../src/store/db.js';
import { tempDir } from '../helpers/sandbox.js';

/**
 * Lifetimes of dashboard sign-in (docs/dashboard.md#signing-in: login tokens 15 min and single use, sessions 12 h),
 * checked with a clock the test moves; the rest is end to end in test/e2e/dashboard-*.test.ts.
 */
let dir: ReturnType<typeof tempDir>;
let ctx: Ctx;
let now: number;
let keyId: string;

beforeEach(() => {
  dir = tempDir('crm-dash-unit-');
  ctx = createContext(openDb(`${dir.path}/d.db`));
  now = Date.parse('2026-11-21T12:00:00.000Z');
  ctx.clock = () => now;
  keyId = createApiKey(ctx, { name: 'admin', scopes: ['*'] }).id;
});
afterEach(() => {
  ctx.db.close();
  dir.remove();
});

describe('dashboard login tokens and sessions', () => {
  it('a login token works just before 15 minutes, not at 15 minutes', () => {
    const early = createLoginToken(ctx, keyId).token;
    const late = createLoginToken(ctx, keyId).token;
    now += LOGIN_TTL_MS - 1;
    expect(signInWithToken(ctx, early).principal).toEqual({ subject: keyId, scopes: ['*'], expiresAt: null });
    now += 1;
    expect(() => signInWithToken(ctx, late)).toThrow(/expired/);
  });

  it('a login token works once', () => {
    const { token } = createLoginToken(ctx, keyId);
    signInWithToken(ctx, token);
    expect(() => signInWithToken(ctx, token)).toThrow(/already used/);
  });

  it('a session lasts 12 hours, and ends when its key is revoked', () => {
    const session = signInWithToken(ctx, createLoginToken(ctx, keyId).token);
    now += SESSION_TTL_MS - 1;
    expect(sessionPrincipal(ctx, session.id)?.subject).toBe(keyId);
    now += 1;
    expect(sessionPrincipal(ctx, session.id)).toBeUndefined();

    const other = signInWithToken(ctx, createLoginToken(ctx, keyId).token);
    revokeApiKey(ctx, keyId, sessionPrincipal(ctx, other.id)!);
    expect(sessionPrincipal(ctx, other.id)).toBeUndefined();
  });

  it('a session made from a pasted key carries that key’s scopes; stored hashed', () => {
    const key = createApiKey(ctx, { name: 'reader', scopes: ['leads:read'] });
    const session = signInWithKey(ctx, key.secret);
    expect(sessionPrincipal(ctx, session.id)).toEqual({ subject: key.id, scopes: ['leads:read'], expiresAt: null });
    const stored = ctx.db.prepare('SELECT hash FROM dashboard_sessions').pluck().all() as string[];
    expect(stored).not.toContain(session.id);
    expect(() => signInWithKey(ctx, 'crm_test_' + 'x'.repeat(32))).toThrow(/unknown/);
  });
});
