import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { apiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

/**
 * HEAD on the wire (RFC 9110 §9.3.2): the GET route's status and header fields, no content. The
 * sandbox routes a HEAD to the GET route (src/http/head-as-get.ts) instead of a HEAD route per GET,
 * so these check what a client sees, byte for byte, from a raw socket: fetch would hide a body that
 * was sent after all.
 */
let sandbox: RunningApp;
let api: ReturnType<typeof apiClient>;

useApp({}, (s, a) => ((sandbox = s), (api = a)));
beforeAll(async () => {
  await api.post('/v1/leads', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
});

interface RawResponse {
  status: number;
  headers: Map<string, string>;
  /** Whatever came after the header block before the server closed the connection. */
  after: string;
}

/**
 * One request on its own connection (Connection: close), everything the server sent read back.
 * `then`: a GET of that path follows on the same connection (keep-alive), and closes it.
 */
function raw(method: string, path: string, key: string | null = sandbox.apiKey, { then }: { then?: string } = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(sandbox.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const split = received.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = received.slice(0, split).split('\r\n');
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, after: received.slice(split + 4) });
    });
    const auth = key === null ? '' : `Authorization: Bearer ${key}\r\n`;
    const host = `Host: ${hostname}:${port}\r\n`;
    if (then === undefined) socket.write(`${method} ${path} HTTP/1.1\r\n${host}${auth}Connection: close\r\n\r\n`);
    else socket.write(`${method} ${path} HTTP/1.1\r\n${host}${auth}\r\nGET ${then} HTTP/1.1\r\n${host}${auth}Connection: close\r\n\r\n`);
  });
}

describe('HEAD is answered as the GET of the same path, without content', () => {
  it('a list: 200 with the GET’s type and length, and not one byte of body', async () => {
    const get = await raw('GET', '/v1/leads?limit=5');
    const head = await raw('HEAD', '/v1/leads?limit=5');
    expect(get.status).toBe(200);
    expect(get.after).toContain('ada@example.com');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.after, 'latin1')));
    expect(head.after).toBe('');
  });

  it('keeps the GET’s access rules: no key is 401, and nothing is sent but the headers', async () => {
    const head = await raw('HEAD', '/v1/leads', null);
    expect(head.status).toBe(401);
    expect(head.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(head.after).toBe('');
  });

  it('an unknown record is 404 and an unknown path 404, bodiless', async () => {
    for (const path of ['/v1/leads/lead_00000000000000000000000000', '/v1/nope']) {
      const head = await raw('HEAD', path);
      expect(head.status, path).toBe(404);
      expect(head.after, path).toBe('');
    }
  });

  it('a path without GET is 405 with the Allow a GET there gets', async () => {
    const { body } = await api.get('/v1/leads?limit=1');
    const path = `/v1/leads/${body.data[0].id}/convert`;
    const get = await raw('GET', path);
    const head = await raw('HEAD', path);
    expect(get.status).toBe(405);
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe(get.headers.get('allow'));
    expect(head.headers.get('allow')).toBe('POST');
    expect(head.after).toBe('');
  });

  it('an event stream answers its headers and ends: the next request on the connection is answered', async () => {
    for (const path of ['/v1/events/stream', '/v1/usage/stream']) {
      // Two requests on one connection: the second's answer can only come once the stream's has ended.
      const head = await raw('HEAD', path, sandbox.apiKey, { then: '/v1/leads?limit=1' });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-type'), path).toBe('text/event-stream; charset=utf-8');
      expect(head.after.startsWith('HTTP/1.1 200 OK\r\n'), path).toBe(true); // no byte of the stream before it
      expect(head.after, path).toContain('ada@example.com');
    }
  });

  it('the request log records the method the client sent', async () => {
    await raw('HEAD', '/v1/leads?limit=3');
    const { body } = await api.get('/v1/request_logs?limit=20&order=desc');
    const logged = body.data.find((entry: { query: string | null }) => entry.query === 'limit=3');
    expect(logged).toMatchObject({ method: 'HEAD', path: '/v1/leads', status: 200 });
  });
});
