import { beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD, rawRequest, signIn } from '../helpers/dashboard.js';
import { openSseStream } from '../helpers/sse-stream.js';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

/**
 * GET /dashboard/stream: the dashboard's one live connection (events and the usage report), its
 * scopes, its resume after Last-Event-ID, and who may open it — against a real sandbox process.
 */
let sandbox: RunningApp;
let api: ApiClient;
let cookie: string;
useApp({}, (s, a) => ((sandbox = s), (api = a)));
beforeAll(async () => {
  cookie = await signIn(sandbox.baseUrl, sandbox.dashboardUrl);
});

async function openStream(headers: Record<string, string>) {
  const stream = await openSseStream(`${sandbox.baseUrl}/dashboard/stream`, headers);
  return { ...stream, named: (event: string) => stream.messages.filter((m) => m.event === event) };
}

describe('GET /dashboard/stream', () => {
  it('carries events and the usage report on one connection, and is itself never counted as a /v1 request', async () => {
    const stream = await openStream({ ...DASHBOARD, cookie });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['content-security-policy']).toContain("default-src 'none'");
      await stream.until('the scopes', () => stream.named('scopes').length === 1);
      expect(JSON.parse(stream.named('scopes')[0]!.data)).toEqual({ events: true, usage: true });

      const lead = (await api.post('/v1/leads', { first_name: 'Multiplexed' })).body;
      await stream.until('the lead.created event', () => stream.named('event').some((m) => JSON.parse(m.data).data.object.id === lead.id));
      const message = stream.named('event').find((m) => JSON.parse(m.data).data.object.id === lead.id)!;
      expect(message.id).toBe(JSON.parse(message.data).id);
      expect(JSON.parse(message.data)).toEqual((await api.get(`/v1/events/${message.id}`)).body);

      await stream.until('two usage reports', () => stream.named('usage').length >= 2);
      const report = JSON.parse(stream.named('usage').at(-1)!.data);
      expect(report.requests_per_second.by_class.map((c: { status_class: string }) => c.status_class)).toEqual(['2xx', '4xx', '429', '5xx']);
      const logged = await api.get('/v1/request_logs?path_prefix=/dashboard&limit=10');
      expect(logged.body.data).toEqual([]);
      expect(report.by_endpoint.map((e: { endpoint: string }) => e.endpoint).join(' ')).not.toContain('/dashboard');
    } finally {
      await stream.close();
    }
  });

  it('resumes after Last-Event-ID with nothing skipped or repeated', async () => {
    const first = (await api.post('/v1/leads', { first_name: 'Before' })).body;
    const events = (await api.get('/v1/events?type=lead.created&limit=1000')).body.data as { id: string; data: { object: { id: string } } }[];
    const position = events.find((e) => e.data.object.id === first.id)!.id;
    const a = (await api.post('/v1/leads', { first_name: 'After A' })).body;
    const b = (await api.post('/v1/leads', { first_name: 'After B' })).body;
    const stream = await openStream({ ...DASHBOARD, cookie, 'last-event-id': position });
    try {
      await stream.until('both leads', () => stream.named('event').length >= 2);
      expect(stream.named('event').map((m) => JSON.parse(m.data).data.object.id)).toEqual([a.id, b.id]);
    } finally {
      await stream.close();
    }
  });

  it('sends a key only what its scopes allow', async () => {
    const key = await api.post('/v1/api_keys', { name: 'usage only', scopes: ['usage:read'] });
    const session = await rawRequest(
      sandbox.baseUrl,
      'POST',
      '/dashboard/session',
      { ...DASHBOARD, origin: sandbox.baseUrl },
      JSON.stringify({ api_key: key.body.secret }),
    );
    expect(session.status).toBe(200);
    const stream = await openStream({ ...DASHBOARD, cookie: String(session.headers['set-cookie']).split(';')[0]! });
    try {
      await stream.until('a usage report', () => stream.named('usage').length >= 1);
      expect(JSON.parse(stream.named('scopes')[0]!.data)).toEqual({ events: false, usage: true });
      await api.post('/v1/leads', { first_name: 'Not for this key' });
      await stream.until('two more usage reports', () => stream.named('usage').length >= 3);
      expect(stream.named('event')).toEqual([]);
      expect(stream.messages.filter((m) => m.id)).toEqual([]); // not even the event position
    } finally {
      await stream.close();
    }
  });

  it('refuses a request without the session, without the dashboard header, or with a malformed position', async () => {
    const cases: [Record<string, string>, number][] = [
      [DASHBOARD, 401],
      [{ cookie }, 401], // a cross-site EventSource sends the cookie but cannot add the header
      [{ ...DASHBOARD, cookie: `crm_session_${new URL(sandbox.baseUrl).port}=forged` }, 401],
      [{ ...DASHBOARD, cookie, 'last-event-id': 'deal_1' }, 400],
      [{ ...DASHBOARD, cookie, host: `evil.example:${new URL(sandbox.baseUrl).port}` }, 421],
    ];
    for (const [headers, status] of cases) {
      const res = await rawRequest(sandbox.baseUrl, 'GET', '/dashboard/stream', headers);
      expect(res.status, JSON.stringify(headers)).toBe(status);
      expect(res.headers['content-type'], JSON.stringify(headers)).toMatch(/^application\/problem\+json/);
    }
  });
});
