import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResponse } from '../helpers/openapi-check.js';
import { startPrismProxy, violationsOf, type RunningPrism, type Violation } from '../helpers/prism.js';
import { tempDir } from '../helpers/sandbox.js';
import { startApp, type RunningApp } from '../helpers/app.js';
import { type FakeProvider, startFakeProvider } from '../helpers/fake-model-provider.js';

/**
 * docs/api.md#the-openapi-document: the published document says exactly what the server does, by a tool we did not write.
 * A real sandbox behind Stoplight Prism's validation proxy; every operation of the document is called
 * once with a valid request (no violation of any kind may be reported, whatever the status), and a
 * handful with requests the document calls invalid (Prism must see the request's fault, the server
 * must refuse it, and its refusal must match the document).
 *
 * Three kinds of answer cannot pass through the proxy, which reads a whole response and follows
 * redirects: the two Server-Sent Event streams and the OAuth consent form's redirect, and a 10 MB
 * body (over Prism's own limit). Those are called directly and checked with the suite's own
 * validator (helpers/openapi-check.ts, Ajv 2020).
 */
type Json = Record<string, any>;
let sandbox: RunningApp;
let prism: RunningPrism;
let doc: Json;
const dir = tempDir('crm-conformance-');
const called = new Set<string>();
const reported: string[] = [];

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
  sandbox = await startApp({ seed: 1, assistant: { provider: 'openai', url: `${fake.url}/v1`, model: 'fake-model', timeoutMs: 5000 } });
  doc = (await (await fetch(`${sandbox.baseUrl}/v1/openapi.json`)).json()) as Json;
  const file = join(dir.path, 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  prism = await startPrismProxy(file, sandbox.baseUrl);
}, 120_000);

afterAll(async () => {
  await prism?.stop();
  await sandbox?.stop();
  await fake?.close();
  dir.remove();
});

/** The document's operation a request reaches (fixed paths win over templated ones). */
function operationOf(method: string, target: string): string {
  const path = target.split('?')[0]!;
  const templates = Object.keys(doc.paths)
    .filter((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path))
    .sort((a, b) => a.split('{').length - b.split('{').length);
  expect(templates[0], `${method} ${path} is not in the document`).toBeDefined();
  expect(doc.paths[templates[0]!][method.toLowerCase()], `${method} ${templates[0]} is not in the document`).toBeDefined();
  return `${method} ${templates[0]}`;
}

interface Call {
  body?: unknown;
  form?: Record<string, string>;
  raw?: { type: string; text: string };
  key?: string | null;
  headers?: Record<string, string>;
}
interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
  violations: Violation[];
}

async function send(base: string, method: string, path: string, call: Call = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...call.headers };
  const key = call.key === undefined ? sandbox.apiKey : call.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (call.raw) [headers['content-type'], body] = [call.raw.type, call.raw.text];
  else if (call.form) [headers['content-type'], body] = ['application/x-www-form-urlencoded', new URLSearchParams(call.form).toString()];
  else if (call.body !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(call.body)];
  const response = await fetch(`${base}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  const json = /json/.test(response.headers.get('content-type') ?? '') && text ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, body: json, text, violations: violationsOf(response.headers) };
}

/** A request the document calls valid, through Prism: any violation fails the test. */
async function valid(method: string, path: string, status: number, call: Call = {}): Promise<Answer> {
  const answer = await send(prism.url, method, path, call);
  called.add(operationOf(method, path));
  for (const v of answer.violations) reported.push(`${method} ${path} → ${answer.status}: ${v.location.join('.')} ${v.message}`);
  expect(answer.violations, `${method} ${path}`).toEqual([]);
  expect(answer.status, `${method} ${path}: ${answer.text.slice(0, 300)}`).toBe(status);
  return answer;
}

/** A request the document calls invalid: Prism names the request's fault, and nothing in the answer. */
async function invalid(method: string, path: string, status: number, call: Call, fault: RegExp): Promise<Answer> {
  const answer = await send(prism.url, method, path, call);
  const request = answer.violations.filter((v) => v.location[0] === 'request');
  const response = answer.violations.filter((v) => v.location[0] !== 'request');
  expect(response, `${method} ${path}: the answer breaks the document`).toEqual([]);
  expect(request.map((v) => `${v.location.join('.')} ${v.message}`).join('\n'), `${method} ${path}: Prism should refuse the request too`).toMatch(fault);
  expect(answer.status, `${method} ${path}: ${answer.text.slice(0, 300)}`).toBe(status);
  return answer;
}

/** A call Prism cannot carry: straight to the sandbox, checked by the suite's own validator. */
async function direct(method: string, path: string, status: number, call: Call = {}, read = true): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${sandbox.apiKey}`, ...call.headers };
  const response = await fetch(`${sandbox.baseUrl}${path}`, { method, headers, redirect: 'manual', ...(call.raw ? { body: call.raw.text } : {}) });
  called.add(operationOf(method, path));
  expect(response.status, `${method} ${path}`).toBe(status);
  const type = response.headers.get('content-type') ?? '';
  if (!read) {
    // A stream: its status and media type are what the document says; then it is closed.
    const media = Object.keys(doc.paths[operationOf(method, path).split(' ')[1]!][method.toLowerCase()].responses[String(status)].content);
    expect(media).toContain(type.split(';')[0]);
    await response.body?.cancel();
    return { status: response.status, headers: response.headers, body: undefined, text: '', violations: [] };
  }
  const text = await response.text();
  const body = /json/.test(type) && text ? JSON.parse(text) : text;
  await checkResponse(sandbox.baseUrl, method, path, response.status, type, body);
  return { status: response.status, headers: response.headers, body, text, violations: [] };
}

const LINE = { description: 'Seat', quantity: 2, unit_price: 40 };

describe("the document and the server, through Prism's validation proxy", () => {
  it('every operation answers a valid request as documented', async () => {
    await valid('GET', '/healthz', 200, { key: null });
    await valid('GET', '/v1/openapi.json', 200, { key: null });
    await valid('GET', '/.well-known/oauth-authorization-server', 200, { key: null });
    await valid('GET', '/v1/account', 200);
    await valid('GET', '/v1/pipelines', 200);

    // Leads
    const lead = (await valid('POST', '/v1/leads', 201, { body: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@conformance.example' } })).body;
    await valid('GET', '/v1/leads?limit=2&sort=updated_at&order=desc&created_after=2020-01-01T00:00:00Z', 200);
    await valid('GET', `/v1/leads/${lead.id}`, 200);
    await valid('PATCH', `/v1/leads/${lead.id}`, 200, { body: { status: 'qualified' } });
    await valid('POST', `/v1/leads/${lead.id}/convert`, 201, { body: { deal: { title: 'First deal', value: 100, currency: 'EUR' } } });
    const doomedLead = (await valid('POST', '/v1/leads', 201, { body: { first_name: 'Gone' } })).body;
    await valid('DELETE', `/v1/leads/${doomedLead.id}`, 200);

    // Clients and their contact persons
    const client = (await valid('POST', '/v1/clients', 201, { body: { name: 'Conformance GmbH', email: 'billing@conformance.example' } })).body;
    await valid('GET', '/v1/clients?q=Conformance', 200);
    await valid('GET', `/v1/clients/${client.id}`, 200);
    await valid('PATCH', `/v1/clients/${client.id}`, 200, { body: { tags: ['vip'] } });
    const contact = (await valid('POST', `/v1/clients/${client.id}/contacts`, 201, { body: { first_name: 'Grace', email: 'grace@conformance.example' } })).body;
    await valid('GET', `/v1/clients/${client.id}/contacts`, 200);
    await valid('GET', `/v1/clients/${client.id}/contacts/${contact.id}`, 200);
    await valid('PATCH', `/v1/clients/${client.id}/contacts/${contact.id}`, 200, { body: { role: 'CTO' } });
    await valid('DELETE', `/v1/clients/${client.id}/contacts/${contact.id}`, 200);
    const doomedClient = (await valid('POST', '/v1/clients', 201, { body: { name: 'Gone Ltd' } })).body;
    await valid('DELETE', `/v1/clients/${doomedClient.id}`, 200);

    // Deals
    const deal = (await valid('POST', '/v1/deals', 201, { body: { title: 'Big one', value: 5000, currency: 'EUR', stage: 'qualified' } })).body;
    await valid('GET', '/v1/deals?limit=3', 200);
    await valid('GET', '/v1/deals/summary', 200);
    await valid('GET', '/v1/deals/summary?q=big&tag=vip', 200);
    await valid('GET', `/v1/deals/${deal.id}`, 200);
    await valid('PATCH', `/v1/deals/${deal.id}`, 200, { body: { stage: 'proposal' } });
    await valid('POST', `/v1/deals/${deal.id}/win`, 200);
    await valid('POST', `/v1/deals/${deal.id}/reopen`, 200, { body: { stage: 'negotiation' } });
    await valid('POST', `/v1/deals/${deal.id}/lose`, 200, { body: { reason: 'budget' } });
    await valid('DELETE', `/v1/deals/${deal.id}`, 200);

    // Bulk: a batch with one invalid record is a valid request; that record fails alone.
    const bulk = await valid('POST', '/v1/leads/bulk', 200, {
      body: {
        mode: 'create',
        records: [
          { first_name: 'Fine', email: 'fine@conformance.example' },
          { first_name: 'Bad', email: 'not an email' },
        ],
      },
    });
    expect(bulk.body.results.map((r: { status: string }) => r.status)).toEqual(['created', 'failed']);
    await valid('POST', '/v1/clients/bulk', 200, {
      body: { mode: 'upsert', match_on: 'email', records: [{ name: 'Bulk Co', email: 'bulk@conformance.example' }, 42] },
    });
    await valid('POST', '/v1/deals/bulk', 200, {
      body: { mode: 'create', dry_run: true, records: [{ title: 'Planned', value: 1, currency: 'EUR', stage: 'lead_in' }] },
    });

    // Invoices: a draft (send omitted is a sent invoice; false keeps it a draft), sent, paid; another voided.
    const draft = (await valid('POST', '/v1/invoices', 201, { body: { client_id: client.id, line_items: [LINE], send: false } })).body;
    await valid('GET', '/v1/invoices?status=draft', 200);
    await valid('GET', `/v1/invoices/${draft.id}`, 200);
    await valid('PATCH', `/v1/invoices/${draft.id}`, 200, { body: { line_items: [LINE, LINE] } });
    await valid('POST', `/v1/invoices/${draft.id}/send`, 200);
    await valid('POST', `/v1/invoices/${draft.id}/pay`, 200);
    const sent = (await valid('POST', '/v1/invoices', 201, { body: { client_id: client.id, line_items: [LINE] } })).body;
    expect(sent.status).toBe('open');
    await valid('POST', `/v1/invoices/${sent.id}/void`, 200);
    await valid('GET', '/_sandbox/mailbox?to=billing@conformance.example', 200);

    // Webhooks and events (deliveries go to a closed port and fail; that is their business)
    const endpoint = (await valid('POST', '/v1/webhook_endpoints', 201, { body: { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'] } })).body;
    await valid('GET', '/v1/webhook_endpoints', 200);
    await valid('GET', `/v1/webhook_endpoints/${endpoint.id}`, 200);
    await valid('PATCH', `/v1/webhook_endpoints/${endpoint.id}`, 200, { body: { description: 'conformance' } });
    await valid('POST', `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, 200);
    const events = (await valid('GET', '/v1/events?limit=5&created_after=2020-01-01T00:00:00.000Z', 200)).body;
    await valid('GET', `/v1/events/${events.data[0].id}`, 200);
    await valid('POST', `/v1/events/${events.data[0].id}/resend`, 202, { body: { endpoint_id: endpoint.id } });
    await valid('GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`, 200);
    await valid('POST', `/v1/webhook_endpoints/${endpoint.id}/recover`, 202, { body: { since: '2020-01-01T00:00:00Z' } });
    await valid('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, 200);

    // API keys, usage, request logs
    const key = (await valid('POST', '/v1/api_keys', 201, { body: { name: 'conformance', scopes: ['leads:read'] } })).body;
    await valid('GET', '/v1/api_keys', 200);
    await valid('GET', `/v1/api_keys/${key.id}`, 200);
    await valid('DELETE', `/v1/api_keys/${key.id}`, 200);
    await valid('GET', '/v1/usage', 200);
    const logs = (await valid('GET', '/v1/request_logs?limit=3', 200)).body;
    await valid('GET', `/v1/request_logs/${logs.data[0].id}`, 200);

    // OAuth: an app, its consent page, a client_credentials token, its revocation
    const app = (
      await valid('POST', '/v1/oauth_apps', 201, { body: { name: 'Conformance app', redirect_uris: ['http://127.0.0.1:9/callback'], scopes: ['leads:read'] } })
    ).body;
    await valid('GET', '/v1/oauth_apps', 200);
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    const consent = await valid(
      'GET',
      `/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/callback')}&code_challenge=${challenge}&code_challenge_method=S256&state=s1`,
      200,
      { key: null },
    );
    const sealed = /name="request" value="([^"]+)"/.exec(consent.text)?.[1];
    expect(sealed).toBeDefined();
    const approved = await direct('POST', '/oauth/authorize', 302, {
      raw: { type: 'application/x-www-form-urlencoded', text: new URLSearchParams({ request: sealed!, decision: 'approve' }).toString() },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(approved.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/);
    const tokens = (
      await valid('POST', '/oauth/token', 200, {
        key: null,
        form: { grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret },
      })
    ).body;
    await valid('POST', '/oauth/revoke', 200, { key: null, form: { token: tokens.access_token, client_id: app.client_id, client_secret: app.client_secret } });
    await valid('DELETE', `/v1/oauth_apps/${app.id}`, 200);

    // The streams: straight to the sandbox (a stream never ends, and Prism waits for the end)
    await direct('GET', '/v1/events/stream', 200, {}, false);
    await direct('GET', '/v1/usage/stream', 200, {}, false);

    // Custom field definitions
    const field = (
      await valid('POST', '/v1/fields', 201, {
        body: { object: 'client', key: 'conformance_tier', label: 'Tier', type: 'select', options: [{ value: 'gold', label: 'Gold' }] },
      })
    ).body;
    await valid('GET', '/v1/fields?object=client&limit=5', 200);
    await valid('GET', `/v1/fields/${field.id}`, 200);
    await valid('GET', `/v1/fields/${field.id}/usage`, 200);
    await valid('PATCH', `/v1/fields/${field.id}`, 200, { body: { label: 'Customer tier' } });
    await valid('DELETE', `/v1/fields/${field.id}`, 200);

    // The assistant, against a scripted model: its turns are streams that end, read whole and each
    // event checked against the document's schema by the suite's validator.
    await valid('GET', '/v1/assistant', 200);
    fake.script([{ toolCalls: [{ name: 'create_lead', args: { first_name: 'Conformance' } }] }, { text: 'Added.' }]);
    const turn = await direct('POST', '/v1/assistant/messages', 200, {
      raw: { type: 'application/json', text: JSON.stringify({ content: 'Add Conformance' }) },
      headers: { 'content-type': 'application/json' },
    });
    const confirmation = /"confirmation":\{"id":"(conf_\w+)"/.exec(turn.text)![1]!;
    await direct('POST', `/v1/assistant/confirmations/${confirmation}`, 200, {
      raw: { type: 'application/json', text: JSON.stringify({ approve: true }) },
      headers: { 'content-type': 'application/json' },
    });
    const conversations = (await valid('GET', '/v1/assistant/conversations?limit=5', 200)).body;
    await valid('GET', `/v1/assistant/conversations/${conversations.data[0].id}`, 200);

    // Sandbox controls and accounts
    await valid('POST', '/_sandbox/faults', 201, { body: { path_prefix: '/v1/nothing' }, headers: { 'idempotency-key': 'conformance-fault' } });
    await valid('GET', '/_sandbox/faults', 200);
    await valid('DELETE', '/_sandbox/faults', 200);
    await valid('POST', '/_sandbox/dashboard_logins', 201);
    await valid('POST', '/_sandbox/webhook_pause', 200, { body: { seconds: 60 } });
    await valid('GET', '/_sandbox/webhook_pause', 200);
    await valid('DELETE', '/_sandbox/webhook_pause', 200);
    const account = (await valid('POST', '/_sandbox/accounts', 201, { body: { name: 'conformance', seed: null } })).body;
    await valid('POST', '/v1/account/trial', 200, { key: account.api_key });
    await valid('GET', '/_sandbox/accounts', 200);
    await valid('GET', `/_sandbox/accounts/${account.id}`, 200);
    await valid('GET', `/_sandbox/accounts/${account.id}/clock`, 200);
    await valid('POST', `/_sandbox/accounts/${account.id}/clock`, 200, { body: { to: '2099-01-01T00:00:00Z' } });
    await valid('POST', `/_sandbox/accounts/${account.id}/snapshots`, 201, { body: { name: 'empty' } });
    await valid('GET', `/_sandbox/accounts/${account.id}/snapshots`, 200);
    await valid('POST', `/_sandbox/accounts/${account.id}/snapshots/empty/restore`, 200);
    await valid('DELETE', `/_sandbox/accounts/${account.id}/snapshots/empty`, 200);
    await valid('DELETE', `/_sandbox/accounts/${account.id}`, 200);
    await valid('POST', '/_sandbox/reset', 200);

    const missing = Object.entries<Json>(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .filter((op) => !called.has(op));
    expect(missing, 'operations no request reached').toEqual([]);
  }, 120_000);

  it('answers documented errors without a violation: a retried key with another body, an unknown id, a trial taken', async () => {
    await valid('POST', '/v1/leads', 201, { body: { first_name: 'Key' }, headers: { 'idempotency-key': 'conformance-reused' } });
    const reused = await valid('POST', '/v1/leads', 422, { body: { first_name: 'Other' }, headers: { 'idempotency-key': 'conformance-reused' } });
    expect(reused.body.code).toBe('idempotency_key_reused');
    await valid('GET', '/v1/deals/deal_doesnotexist', 404);
    expect((await valid('POST', '/v1/account/trial', 409)).body.code).toBe('conflict');
    await valid('POST', '/oauth/revoke', 401, { key: null, form: { token: 'x', client_id: 'nobody', client_secret: 'nothing' } });
  });

  it('refuses what the document calls invalid, and the refusal is documented', async () => {
    await invalid(
      'POST',
      '/v1/deals',
      415,
      { raw: { type: 'application/x-www-form-urlencoded', text: 'title=x' } },
      /content type|media type|application\/json/i,
    );
    await invalid('POST', '/v1/leads', 422, { body: { first_name: 'Typed', email: 42 } }, /email/);
    await invalid('POST', '/v1/invoices', 422, { body: { client_id: 'cli_x' } }, /line_items/);
    await invalid('GET', '/v1/leads?limit=abc', 400, {}, /limit/);
    await invalid('GET', '/v1/leads?created_after=yesterday', 400, {}, /created_after/);
    await invalid('POST', '/_sandbox/faults', 422, { body: { path_prefix: '/elsewhere' } }, /path_prefix/);
    await invalid('GET', '/v1/events/stream?after=nope', 400, {}, /after/);
    // The client is authenticated first: no client, 401 (and Prism sees the grant type is not one).
    await invalid('POST', '/oauth/token', 401, { key: null, form: { grant_type: 'password' } }, /grant_type/);
    await invalid('POST', '/oauth/authorize', 400, { key: null, form: { request: 'forged', decision: 'maybe' } }, /decision/);
    // A query parameter the document does not list: Prism lets it pass, the server says 400 on every
    // operation whose 400 says so (and the streams say it before they open).
    const listing = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
      Object.entries<Json>(item)
        .filter(([, op]) => /does not list/.test(op.responses['400']?.description ?? ''))
        .map(([method]) => [method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x')] as const),
    );
    expect(listing.length).toBeGreaterThan(10);
    for (const [method, path] of listing) {
      const unknown = await send(prism.url, method, `${path}?colour=blue`, { body: method === 'GET' ? undefined : {} });
      expect([unknown.status, unknown.body.code], `${method} ${path}?colour=blue`).toEqual([400, 'invalid_request']);
      expect(
        unknown.violations.filter((v) => v.location[0] !== 'request'),
        `${method} ${path}`,
      ).toEqual([]);
    }
    // Over 10 MB is over Prism's own limit: straight to the sandbox.
    await direct('POST', '/v1/leads', 413, {
      raw: { type: 'application/json', text: JSON.stringify({ first_name: 'x'.repeat(10.5 * 1024 * 1024) }) },
      headers: { 'content-type': 'application/json' },
    });
  });

  afterAll(() => {
    // What Prism said, for the failure message of a run that found something.
    if (reported.length > 0) console.error(`Prism reported:\n${reported.join('\n')}`);
  });
});
