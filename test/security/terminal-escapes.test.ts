import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCrm } from '../helpers/cli-process.js';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp } from '../helpers/app.js';

/**
 * A finding (docs/security.md#the-terminal): `crm keys list`, `crm webhooks list` and error details printed names,
 * descriptions and server text raw, so escape sequences reached the terminal (OSC 52 writes the
 * clipboard; CSI moves the cursor and clears the screen). The sandbox now refuses control
 * characters in configuration names and descriptions (422), and the CLI shows any it is sent as
 * \xHH in human output; --json stays JSON with them as \u escapes (docs/security.md#the-terminal).
 */
const ESC = '\u001b';
const C1_CSI = '\u009b';
/** OSC 52 (set the clipboard to "evil"), BEL, a clear-screen CSI, a C1 CSI colour, CR over the line. */
const HOSTILE = `ci${ESC}]52;c;ZXZpbA==\u0007${ESC}[2J${C1_CSI}31m\rroot`;

const expectEscaped = (text: string) => {
  expect(text).not.toContain(ESC);
  expect(text).not.toContain(C1_CSI);
  expect(text).not.toContain('\r');
  expect(text).toContain('ci\\x1b]52;c;ZXZpbA==\\x07\\x1b[2J\\x9b31m\\x0droot');
};

describe('the CLI, against a server that sends control characters', () => {
  // Text the sandbox now refuses: a plain HTTP server speaking the API's shapes stands in for an
  // older sandbox, or another server, that still holds such names.
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const send = (status: number, body: unknown, type = 'application/json') => response.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
      const path = request.url!.split('?')[0];
      if (request.method === 'GET' && path === '/v1/api_keys') {
        return send(200, {
          data: [
            {
              id: 'key_1',
              name: HOSTILE,
              scopes: ['*'],
              prefix: 'crm_test_',
              last4: 'abcd',
              created_at: '2026-01-01T00:00:00Z',
              expires_at: null,
              last_used_at: null,
              revoked_at: null,
            },
          ],
          next_cursor: null,
        });
      }
      if (request.method === 'GET' && path === '/v1/webhook_endpoints') {
        return send(200, {
          data: [
            { id: 'we_1', url: 'http://127.0.0.1:9/hook', enabled_events: ['*'], status: 'enabled', description: HOSTILE, created_at: '2026-01-01T00:00:00Z' },
          ],
          next_cursor: null,
        });
      }
      send(
        404,
        {
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          code: 'not_found',
          request_id: 'req_1',
          detail: `No such key ${HOSTILE}`,
          errors: [{ path: 'id', code: 'x', message: `field ${HOSTILE}` }],
        },
        'application/problem+json',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const crm = (...args: string[]) => runCrm(['--base-url', baseUrl, '--api-key', 'crm_test_x', ...args], { CRM_PROFILE: '' });

  it('crm keys list shows a key name escaped', async () => {
    const run = await crm('keys', 'list');
    expect(run.code).toBe(0);
    expectEscaped(run.stdout);
  });

  it('crm webhooks list shows a description escaped', async () => {
    const run = await crm('webhooks', 'list');
    expect(run.code).toBe(0);
    expectEscaped(run.stdout);
  });

  it("an error's detail and field messages are escaped on stderr", async () => {
    const run = await crm('keys', 'revoke', 'key_x');
    expect(run.code).toBe(1);
    expectEscaped(run.stderr);
    expect(run.stderr).toContain('field ci\\x1b]52');
  });

  it('--json stays JSON with the same strings, the escapes as \\u escapes', async () => {
    const list = await crm('keys', 'list', '--json');
    expect(list.stdout).not.toContain(ESC);
    expect(list.stdout).not.toContain(C1_CSI);
    expect(JSON.parse(list.stdout).data[0].name).toBe(HOSTILE);
    const failed = await crm('keys', 'revoke', 'key_x', '--json');
    expect(failed.stdout).not.toContain(ESC);
    expect(failed.stdout).not.toContain(C1_CSI);
    expect(JSON.parse(failed.stdout).error.message).toContain(`No such key ${HOSTILE}`);
  });
});

describe('the sandbox refuses control characters in names and descriptions', () => {
  let api: ApiClient;
  useApp({}, (_sandbox, client) => (api = client));

  const refused = (response: { status: number; body: { code: string; errors?: { path: string; message: string }[] } }, path: string) => {
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([
      expect.objectContaining({ path, message: expect.stringMatching(/^Control characters \(U\+0000–U\+001F, U\+007F–U\+009F/) }),
    ]);
  };

  it('POST /v1/api_keys with ESC, a C1 CSI, a tab or a newline in the name is 422', async () => {
    for (const name of [`ci${ESC}]52;c;ZXZpbA==\u0007`, `ci${C1_CSI}2J`, 'ci\tkey', 'ci\nkey', 'ci\u007f']) {
      refused(await api.post('/v1/api_keys', { name, scopes: ['leads:read'] }), 'name');
    }
    expect((await api.post('/v1/api_keys', { name: 'CI — Zürich 🚀', scopes: ['leads:read'] })).status).toBe(201);
  });

  it('webhook endpoint descriptions, OAuth app names and account names too', async () => {
    refused(await api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', description: `hook${ESC}[2J` }), 'description');
    const made = await api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', description: 'ok' });
    expect(made.status).toBe(201);
    refused(await api.patch(`/v1/webhook_endpoints/${made.body.id}`, { description: `hook${C1_CSI}31m` }), 'description');
    refused(await api.post('/v1/oauth_apps', { name: `app${ESC}]0;title\u0007`, redirect_uris: ['http://127.0.0.1:9/cb'], scopes: ['leads:read'] }), 'name');
    refused(await api.post('/_sandbox/accounts', { name: `acct${ESC}[31m` }), 'name');
  });

  it("records' text keeps tabs and newlines (notes come from other systems' files)", async () => {
    const lead = await api.post('/v1/leads', { first_name: 'Ada', notes: 'line one\nline two\tand a tab' });
    expect(lead.status).toBe(201);
    expect(lead.body.notes).toBe('line one\nline two\tand a tab');
  });
});
