import { describe, expect, it } from 'vitest';
import { DASHBOARD, rawRequest, signIn, signInWithKey } from '../helpers/dashboard.js';
import { openSseStream } from '../helpers/sse-stream.js';
import { runCrm } from '../helpers/cli-process.js';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

/**
 * The attack: keep a stream open with a credential, have the credential taken away, and go on
 * reading. A credential's open streams must end when it is revoked, expires or its session ends
 * (docs/security.md#one-rule-for-every-access-decision), with nothing delivered after that — against a real sandbox process.
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({}, (s, a) => ((sandbox = s), (api = a)));

type Stream = Awaited<ReturnType<typeof openSseStream>>;

const newKey = async (scopes: string[], extra: Record<string, unknown> = {}) => {
  const res = await api.post('/v1/api_keys', { name: `stream ${scopes.join(' ')}`, scopes, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret: string };
};

const leadIds = (stream: Stream) =>
  stream.messages.filter((m) => m.hasData && m.data.includes('"lead.created"')).map((m) => JSON.parse(m.data).data.object.id as string);

/** Proves the stream delivers: a lead made now shows up on it. */
async function expectDelivering(stream: Stream): Promise<void> {
  expect(stream.status).toBe(200);
  const lead = (await api.post('/v1/leads', { first_name: 'Before' })).body;
  await stream.until('the lead made before the revoke', () => leadIds(stream).includes(lead.id));
}

/**
 * After `takeAway` (the credential is revoked or its session ended), more events happen; the
 * stream must end without delivering any of them, saying why in a comment.
 */
async function expectEndsWithNothingAfter(stream: Stream, takeAway: () => Promise<void>): Promise<void> {
  try {
    await takeAway();
    const delivered = stream.messages.length;
    const after = (await api.post('/v1/leads', { first_name: 'After' })).body;
    await stream.until('the stream to end', () => stream.ended);
    expect(stream.messages.slice(delivered)).toEqual([]);
    expect(leadIds(stream)).not.toContain(after.id);
    expect(stream.text).toMatch(/\n: closed: the credential was revoked or has expired, or the session ended\n\n$/);
  } finally {
    await stream.close();
  }
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

describe('GET /v1/events/stream', () => {
  it('ends when its API key is revoked through the API with another admin key', async () => {
    const key = await newKey(['events:read']);
    const stream = await openSseStream(`${sandbox.baseUrl}/v1/events/stream`, bearer(key.secret));
    await expectDelivering(stream);
    await expectEndsWithNothingAfter(stream, async () => {
      expect((await api.delete(`/v1/api_keys/${key.id}`)).status).toBe(200);
    });
    // Reconnecting, as `crm listen` would, is refused.
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/v1/events/stream', bearer(key.secret))).status).toBe(401);
  });

  it('ends when its API key is revoked even if nothing happens after (no event to push)', async () => {
    const key = await newKey(['events:read']);
    const stream = await openSseStream(`${sandbox.baseUrl}/v1/events/stream`, bearer(key.secret));
    try {
      await expectDelivering(stream);
      const delivered = stream.messages.length;
      expect((await api.delete(`/v1/api_keys/${key.id}`)).status).toBe(200);
      await stream.until('the idle stream to end', () => stream.ended);
      expect(stream.messages.slice(delivered)).toEqual([]);
    } finally {
      await stream.close();
    }
  });

  it('ends when its API key is revoked with `crm keys revoke`', async () => {
    const key = await newKey(['events:read']);
    const stream = await openSseStream(`${sandbox.baseUrl}/v1/events/stream`, bearer(key.secret));
    await expectDelivering(stream);
    await expectEndsWithNothingAfter(stream, async () => {
      const run = await runCrm(['--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey, 'keys', 'revoke', key.id]);
      expect(run.code, run.stderr).toBe(0);
    });
  });

  it('ends when its API key expires', async () => {
    const expiresAt = Date.now() + 3000;
    const key = await newKey(['events:read'], { expires_at: new Date(expiresAt).toISOString() });
    const stream = await openSseStream(`${sandbox.baseUrl}/v1/events/stream`, bearer(key.secret));
    await expectDelivering(stream);
    await expectEndsWithNothingAfter(stream, async () => {
      while (Date.now() <= expiresAt) await new Promise((r) => setTimeout(r, 100));
    });
  });

  it('ends when its OAuth access token is revoked (RFC 7009)', async () => {
    const app = (await api.post('/v1/oauth_apps', { name: 'Streamer', redirect_uris: ['http://127.0.0.1:9/cb'], scopes: ['events:read'] })).body;
    const basic = { authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}` };
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { ...basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    const tokens = (await (await fetch(`${sandbox.baseUrl}/oauth/token`, form({ grant_type: 'client_credentials', scope: 'events:read' }))).json()) as {
      access_token: string;
    };
    const stream = await openSseStream(`${sandbox.baseUrl}/v1/events/stream`, bearer(tokens.access_token));
    await expectDelivering(stream);
    await expectEndsWithNothingAfter(stream, async () => {
      expect((await fetch(`${sandbox.baseUrl}/oauth/revoke`, form({ token: tokens.access_token }))).status).toBe(200);
    });
  });

  it('ends when its account is deleted, and the sandbox keeps serving', async () => {
    const account = (await api.post('/_sandbox/accounts', { name: 'doomed' })).body as { id: string; api_key: string };
    const stream = await openSseStream(`${sandbox.baseUrl}/v1/events/stream`, bearer(account.api_key));
    expect(stream.status).toBe(200);
    await stream.until('the opening position', () => stream.messages.length === 1);
    try {
      expect((await api.delete(`/_sandbox/accounts/${account.id}`)).status).toBe(200);
      await stream.until('the stream to end', () => stream.ended);
      expect(stream.messages).toHaveLength(1);
      expect((await api.get('/healthz')).status).toBe(200);
    } finally {
      await stream.close();
    }
  });
});

describe('GET /v1/usage/stream', () => {
  it('ends when its API key is revoked', async () => {
    const key = await newKey(['usage:read']);
    const stream = await openSseStream(`${sandbox.baseUrl}/v1/usage/stream`, bearer(key.secret));
    expect(stream.status).toBe(200);
    await stream.until('a usage report', () => stream.messages.some((m) => m.event === 'usage'));
    await expectEndsWithNothingAfter(stream, async () => {
      expect((await api.delete(`/v1/api_keys/${key.id}`)).status).toBe(200);
    });
  });
});

describe('GET /dashboard/stream', () => {
  const openDashboardStream = (cookie: string) => openSseStream(`${sandbox.baseUrl}/dashboard/stream`, { ...DASHBOARD, cookie });

  it('ends at sign-out', async () => {
    const cookie = await signIn(sandbox.baseUrl, sandbox.dashboardUrl);
    const stream = await openDashboardStream(cookie);
    await expectDelivering(stream);
    await expectEndsWithNothingAfter(stream, async () => {
      expect((await rawRequest(sandbox.baseUrl, 'DELETE', '/dashboard/session', { ...DASHBOARD, origin: sandbox.baseUrl, cookie })).status).toBe(204);
    });
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/dashboard/stream', { ...DASHBOARD, cookie })).status).toBe(401);
  });

  it('ends when the key behind the session is revoked', async () => {
    const key = await newKey(['events:read', 'usage:read']);
    const cookie = await signInWithKey(sandbox.baseUrl, key.secret);
    const stream = await openDashboardStream(cookie);
    await expectDelivering(stream);
    await expectEndsWithNothingAfter(stream, async () => {
      expect((await api.delete(`/v1/api_keys/${key.id}`)).status).toBe(200);
    });
  });

  it('ends when the key behind the session expires', async () => {
    const expiresAt = Date.now() + 3000;
    const key = await newKey(['events:read'], { expires_at: new Date(expiresAt).toISOString() });
    const stream = await openDashboardStream(await signInWithKey(sandbox.baseUrl, key.secret));
    await expectDelivering(stream);
    await expectEndsWithNothingAfter(stream, async () => {
      while (Date.now() <= expiresAt) await new Promise((r) => setTimeout(r, 100));
    });
  });
});
