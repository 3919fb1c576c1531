import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startSandboxProcess } from '../helpers/sandbox.js';

/**
 * A stop is a stop: a client that asks for large responses and never reads them does not hold
 * SIGTERM (Fastify's close waits for open responses; the sandbox closes what is still open after
 * a short grace period) and the exit is 0 as after any stop.
 */
describe('stopping while a client leaves a large response unread', () => {
  it('exits 0, without waiting for the client', async () => {
    const sandbox = await startSandboxProcess(['--no-seed']);
    const { hostname, port } = new URL(sandbox.baseUrl);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    // Several copies of the OpenAPI document (over 1 MB each), pipelined, never read: the
    // socket's buffers fill and the server's writes wait.
    const request = `GET /v1/openapi.json HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`;
    socket.write(request.repeat(8));
    socket.pause();
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 500)); // the server is writing now
    expect(await sandbox.stop('SIGTERM')).toBe(0);
    // The sandbox closed the connection itself (the client never ended it): reading again, the
    // client gets what was in flight, then the end, short of the eight documents it asked for.
    socket.resume();
    await closed;
    expect(socket.bytesRead).toBeLessThan(8 * 1_000_000);
  });
});
