import { lookup } from 'node:dns/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { listenEarly } from '../../src/sandbox/early-server.js';
import { rawRequest } from '../helpers/dashboard.js';

/**
 * The sandbox binds its port before it builds the app (docs/benchmarks.md): a request that comes meanwhile
 * waits and is answered once the app serves, in arrival order; a busy port fails the bind. Real
 * sockets on 127.0.0.1.
 */
/** A GET on its own connection (Connection: close), so a closed server refuses the next one. */
async function get(port: number, path: string, host = '127.0.0.1'): Promise<{ status: number; body: string }> {
  const { status, body } = await rawRequest(`http://${host.includes(':') ? `[${host}]` : host}:${port}`, 'GET', path, { connection: 'close' });
  return { status, body };
}

describe('listenEarly', () => {
  it('holds the requests that come before serve() and answers them in arrival order after it', async () => {
    const early = await listenEarly(0, '127.0.0.1');
    const { port } = early.server.address() as AddressInfo;
    const arrived: string[] = [];
    early.server.on('request', (req: IncomingMessage) => arrived.push(req.url ?? ''));
    let answered = 0;
    const first = get(port, '/first').then((r) => (answered++, r));
    await new Promise<void>((resolve) => early.server.once('request', () => resolve()));
    const second = get(port, '/second').then((r) => (answered++, r));
    while (arrived.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    // Both reached the server; neither is answered while the app is not there.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(0);

    const handled: string[] = [];
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      handled.push(req.url ?? '');
      res.end(`app saw ${req.url}`);
    };
    expect(early.factory(handler, { keepAliveTimeout: 1234, requestTimeout: 5678 } as FastifyServerOptions)).toBe(early.server);
    expect(early.server.keepAliveTimeout).toBe(1234);
    expect(early.server.requestTimeout).toBe(5678);
    expect(handled).toEqual([]); // taking the server is not serving
    early.serve();
    expect(await first).toEqual({ status: 200, body: 'app saw /first' });
    expect(await second).toEqual({ status: 200, body: 'app saw /second' });
    expect(handled).toEqual(['/first', '/second']);
    // Later requests go straight to the app.
    expect(await get(port, '/later')).toEqual({ status: 200, body: 'app saw /later' });
    await early.close();
    await expect(get(port, '/closed')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('fails with EADDRINUSE on a port that is taken, and the holder keeps it', async () => {
    const holder = await listenEarly(0, '127.0.0.1');
    const { port } = holder.server.address() as AddressInfo;
    await expect(listenEarly(port, '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(holder.server.listening).toBe(true);
    await holder.close();
  });

  it('binds the address it was given and no other: 127.0.0.2, loopback too, is refused', async () => {
    const early = await listenEarly(0, '127.0.0.1');
    const address = early.server.address() as AddressInfo;
    expect(address).toMatchObject({ address: '127.0.0.1', family: 'IPv4' });
    early.factory((_request, response) => response.end('ok'), {});
    early.serve();
    expect((await get(address.port, '/')).body).toBe('ok');
    await expect(get(address.port, '/', '127.0.0.2')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await early.close();
  });

  it('listens on every address localhost has here (127.0.0.1 and ::1 where both bind), one port, one app', async () => {
    // The addresses this machine can bind, found independently of the code under test.
    const bindable: string[] = [];
    for (const { address } of await lookup('localhost', { all: true })) {
      const probe = createServer();
      const ok = await new Promise<boolean>((resolve) => probe.once('error', () => resolve(false)).listen(0, address, () => resolve(true)));
      if (ok) await new Promise((resolve) => probe.close(resolve));
      if (ok && !bindable.includes(address)) bindable.push(address);
    }
    expect(bindable.length).toBeGreaterThan(0);
    const early = await listenEarly(0, 'localhost');
    const { port } = early.server.address() as AddressInfo;
    early.factory((req, res) => res.end(`app saw ${req.url}`), {} as FastifyServerOptions);
    const waited = get(port, '/early', bindable[bindable.length - 1]);
    early.serve();
    expect(await waited).toEqual({ status: 200, body: 'app saw /early' });
    for (const address of bindable) expect(await get(port, `/via/${address}`, address)).toEqual({ status: 200, body: `app saw /via/${address}` });
    await early.close();
    for (const address of bindable) await expect(get(port, '/closed', address)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('answers a waiting request 503 when it closes without serving (a start that failed), instead of hanging', async () => {
    const early = await listenEarly(0, '127.0.0.1');
    const { port } = early.server.address() as AddressInfo;
    const waiting = get(port, '/v1/deals');
    await new Promise<void>((resolve) => early.server.once('request', () => resolve()));
    await early.close();
    const answer = await waiting;
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 503, code: 'unavailable', detail: expect.stringContaining('stopped before it was ready') });
  });

  it('refuses to serve before the app took the server', async () => {
    const early = await listenEarly(0, '127.0.0.1');
    expect(() => early.serve()).toThrow(/before the app took the server/);
    await early.close();
  });
});
