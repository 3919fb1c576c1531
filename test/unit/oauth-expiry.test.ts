import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, type Ctx } from '../../src/services/context.js';
import { createOAuthApp, findAppByClientId, OAuthError, type AppRecord } from '../../src/services/oauth-apps.js';
import { authenticateAccessToken, exchangeCode, issueCode, refreshGrant } from '../../src/services/oauth-tokens.js';
import { openDb } from '../../src/store/db.js';
import { tempDir } from '../helpers/sandbox.js';

/**
 * Lifetimes (docs/reference/access.md#oauth-20: codes 60 s, access tokens 1 h, refresh tokens 30 days), checked at the
 * service level with a clock the test moves: waiting for them end to end would take too long,
 * and the sandbox has no hidden knob to shorten them.
 */
const REDIRECT = 'http://127.0.0.1:9/cb';
const VERIFIER = 'v'.repeat(43);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

let dir: ReturnType<typeof tempDir>;
let ctx: Ctx;
let now: number;
let app: AppRecord;

beforeEach(() => {
  dir = tempDir('crm-oauth-unit-');
  ctx = createContext(openDb(`${dir.path}/oauth.db`));
  now = Date.parse('2026-11-21T12:00:00.000Z');
  ctx.clock = () => now;
  const created = createOAuthApp(ctx, { name: 'Clocked', redirect_uris: [REDIRECT], scopes: ['leads:read'] }, null);
  app = findAppByClientId(ctx, created.client_id)!;
});
afterEach(() => {
  ctx.db.close();
  dir.remove();
});

const code = () =>
  issueCode(ctx, app, { client_id: app.client_id, redirect_uri: REDIRECT, scopes: ['leads:read'], state: undefined, code_challenge: CHALLENGE });
const exchange = (c: string) => exchangeCode(ctx, app, { code: c, redirect_uri: REDIRECT, code_verifier: VERIFIER });

function refusal(run: () => unknown): { error: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OAuthError);
    return { error: (error as OAuthError).error, message: (error as OAuthError).message };
  }
  throw new Error('expected an OAuthError');
}

describe('OAuth lifetimes', () => {
  it('a code works for 60 s and not after', () => {
    const young = code();
    now += 59_999;
    expect(exchange(young).access_token).toMatch(/^crm_at_/);

    const old = code();
    now += 60_000;
    expect(refusal(() => exchange(old))).toMatchObject({ error: 'invalid_grant', message: expect.stringContaining('expired') });
  });

  it('an access token authenticates for 1 h', () => {
    const issuedAt = now;
    const tokens = exchange(code());
    now += 3_600_000 - 1;
    expect(authenticateAccessToken(ctx, tokens.access_token)).toEqual({ subject: app.id, scopes: ['leads:read'], expiresAt: issuedAt + 3_600_000 });
    now += 1;
    expect(authenticateAccessToken(ctx, tokens.access_token)).toBeUndefined();
  });

  it('a refresh token works for 30 days from its issue', () => {
    const first = exchange(code());
    now += 30 * 86_400_000 - 1;
    const second = refreshGrant(ctx, app, { refresh_token: first.refresh_token });
    expect(second.refresh_token).toMatch(/^crm_rt_/);
    now += 30 * 86_400_000;
    expect(refusal(() => refreshGrant(ctx, app, { refresh_token: second.refresh_token }))).toMatchObject({
      error: 'invalid_grant',
      message: expect.stringContaining('expired'),
    });
  });
});
