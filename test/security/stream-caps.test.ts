import { afterEach, describe, expect, it } from 'vitest';
import { FAILED_AUTH_LIMIT } from '../../src/http/failed-authentications.js';
import { STREAMS_PER_ACCOUNT, STREAMS_PER_CREDENTIAL } from '../../src/http/stream-slots.js';
import { DASHBOARD, rawRequest, signInWithKey } from '../helpers/dashboard.js';
import { openSseStream } from '../helpers/sse-stream.js';
import { apiClient, clearOfWindowEnd, type ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

/**
 * A finding (docs/security.md#keys-tokens-and-sessions): one key could hold thousands of live streams, each a timer and a database read a
 * second, and the dashboard's sign-in took wrong keys without limit. Each test is the attack,
 * against a real sandbox process: streams opened until the cap answers 429, and keys guessed
 * through the sign-in until the failed-authentication limit does.
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({}, (s, a) => ((sandbox = s), (api = a)));

type Stream = Awaited<ReturnType<typeof openSseStream>>;
const opened: Stream[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const newKey = async (scopes = ['events:read'], admin = api) => {
  const res = await admin.post('/v1/api_keys', { name: `streams ${scopes.join(' ')}`, scopes });
  expect(res.status, res.text).toBe(201);
  return res.body.secret as string;
};

/** Opens a stream and waits for its first message (the position it starts at, or the dashboard's scopes). */
async function open(path: string, headers: Record<string, string>): Promise<Stream> {
  const stream = await openSseStream(`${sandbox.baseUrl}${path}`, headers);
  opened.push(stream);
  if (stream.status === 200) await stream.until('the first message', () => stream.messages.length > 0);
  else await stream.until('the refusal', () => stream.ended);
  return stream;
}
const events = (secret: string) => open('/v1/events/stream', { authorization: `Bearer ${secret}` });

async function openMany(count: number, secret: string): Promise<Stream[]> {
  const streams = await Promise.all(Array.from({ length: count }, () => events(secret)));
  expect(streams.map((s) => s.status)).toEqual(Array(count).fill(200));
  return streams;
}

function expectTooMany(stream: Stream, what: RegExp): void {
  expect(stream.status, stream.text).toBe(429);
  expect(stream.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(stream.text);
  expect(problem.code).toBe('rate_limited');
  expect(problem.detail).toMatch(what);
  expect(problem.detail).toContain('Close one');
}

/** Opens streams with `secret` until one is let in: a closed stream's slot frees once the server sees it close. */
async function openOnceFreed(secret: string): Promise<Stream> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const stream = await events(secret);
    if (stream.status === 200 || Date.now() > deadline) return stream;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('open streams per credential', () => {
  it(`a key holds at most ${STREAMS_PER_CREDENTIAL}: the next is 429 until one closes; the account's other keys still stream`, async () => {
    const secret = await newKey();
    const streams = await openMany(STREAMS_PER_CREDENTIAL, secret);
    expectTooMany(await events(secret), new RegExp(`credential already has ${STREAMS_PER_CREDENTIAL} open streams`));

    await streams[0]!.close();
    expect((await openOnceFreed(secret)).status).toBe(200);
    expectTooMany(await events(secret), /credential/);

    expect((await events(await newKey())).status).toBe(200);
  });

  it('the usage stream and the key’s dashboard sessions count with the key', async () => {
    const secret = await newKey(['events:read', 'usage:read']);
    const cookie = await signInWithKey(sandbox.baseUrl, secret);
    const dashboard = { ...DASHBOARD, cookie };
    await openMany(STREAMS_PER_CREDENTIAL - 2, secret);
    expect((await open('/v1/usage/stream', { authorization: `Bearer ${secret}` })).status).toBe(200);
    expect((await open('/dashboard/stream', dashboard)).status).toBe(200);
    expectTooMany(await open('/dashboard/stream', dashboard), /credential/);
    expectTooMany(await open('/v1/usage/stream', { authorization: `Bearer ${secret}` }), /credential/);
    expectTooMany(await events(secret), /credential/);
  });
});

describe('open streams per account', () => {
  it(`an account holds at most ${STREAMS_PER_ACCOUNT}, whatever the number of its keys`, async () => {
    // An account of its own, so that no stream of the tests before is still being let go in it.
    const account = await api.post('/_sandbox/accounts', { name: 'many streams', plan: 'pro' });
    expect(account.status, account.text).toBe(201);
    const admin = apiClient({ baseUrl: sandbox.baseUrl, apiKey: account.body.api_key });
    const keys = await Promise.all(Array.from({ length: STREAMS_PER_ACCOUNT / STREAMS_PER_CREDENTIAL + 1 }, () => newKey(['events:read'], admin)));
    const streams: Stream[] = [];
    for (const secret of keys.slice(0, -1)) streams.push(...(await openMany(STREAMS_PER_CREDENTIAL, secret)));
    const last = keys.at(-1)!;
    expectTooMany(await events(last), new RegExp(`account already has ${STREAMS_PER_ACCOUNT} open streams`));

    // Another account is not held back by this one's streams.
    expect((await events(await newKey())).status).toBe(200);

    await streams[0]!.close();
    expect((await openOnceFreed(last)).status).toBe(200);
  });
});

describe('dashboard sign-in with a key', () => {
  it('wrong keys count as failed authentications: 429 past the limit, shared with bearers; a right key still signs in', async () => {
    await clearOfWindowEnd(60_000); // the limit counts per fixed minute: keep the loop and what follows in one
    const signInWith = (apiKey: string) =>
      rawRequest(sandbox.baseUrl, 'POST', '/dashboard/session', { ...DASHBOARD, origin: sandbox.baseUrl }, JSON.stringify({ api_key: apiKey }));
    const statuses: number[] = [];
    for (let i = 0; i < 2 * FAILED_AUTH_LIMIT + 1 && !statuses.includes(429); i++) {
      statuses.push((await signInWith(`crm_test_${String(i).padStart(32, '0')}`)).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([401]));
    expect(statuses.length).toBeGreaterThan(FAILED_AUTH_LIMIT / 2);

    const limited = await signInWith('crm_test_guess');
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.body).code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // One count for the address: a wrong bearer on /v1 is limited too.
    expect((await rawRequest(sandbox.baseUrl, 'GET', '/v1/leads?limit=1', { authorization: 'Bearer not-a-key' })).status).toBe(429);
    // A valid credential is never held back by it, as with bearers.
    expect((await signInWith(sandbox.apiKey)).status).toBe(200);
    expect((await api.get('/v1/leads?limit=1')).status).toBe(200);
  });
});
