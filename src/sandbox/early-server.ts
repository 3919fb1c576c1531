import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { newId } from '../domain/ids.js';
import { problemBody } from '../errors.js';

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The sandbox's HTTP server, bound before anything else of a start is made (docs/benchmarks.md).
 *
 * Binding first is the port check: a start that cannot listen (EADDRINUSE, EACCES) fails before a
 * database file or an admin key exists. It used to be a probe listen and close, then a second
 * listen once the app was built (~5 ms of every start). Requests that arrive while the app is
 * being built are not refused: they wait, in order, and are answered as soon as it is ready, so a
 * client polling for the sandbox (CI, `crm sandbox wait`) gets its answer the moment there is one
 * instead of at its next retry. Fastify gets this server through its `serverFactory` option.
 */
export interface EarlyServer {
  /** The server Fastify gets; its address is the sandbox's. */
  server: Server;
  /** Fastify's `serverFactory`: this server, with Fastify's server settings; Fastify's handler is kept for serve(). */
  factory(handler: RequestHandler, options: FastifyServerOptions): Server;
  /** The app is ready: the requests that waited first, in arrival order, then every new one go to it. */
  serve(): void;
  /**
   * Stops accepting connections; resolves once the open ones have ended. Requests still waiting (a
   * start that failed) are answered 503 first: they would otherwise hold the close, and the process.
   */
  close(): Promise<void>;
  /** Ends every connection at once, open responses included (a stop's grace period is over). */
  closeAllConnections(): void;
}

export async function listenEarly(port: number, host: string): Promise<EarlyServer> {
  const waiting: [IncomingMessage, ServerResponse][] = [];
  let taken: RequestHandler | null = null;
  let serving: RequestHandler | null = null;
  const dispatch: RequestHandler = (request, response) => (serving ? serving(request, response) : void waiting.push([request, response]));
  const server = createServer(dispatch);
  await listen(server, port, host);
  const servers = [server, ...(host === 'localhost' ? await otherLocalhostServers(server, dispatch) : [])];
  return {
    server,
    factory(handler, options) {
      taken = handler;
      // What Fastify sets on a server it makes itself (fastify/lib/server.js getServerInstance).
      for (const each of servers) {
        if (options.keepAliveTimeout !== undefined) each.keepAliveTimeout = options.keepAliveTimeout;
        if (options.requestTimeout !== undefined) each.requestTimeout = options.requestTimeout;
        if (options.connectionTimeout !== undefined) each.setTimeout(options.connectionTimeout);
        if (options.maxRequestsPerSocket) each.maxRequestsPerSocket = options.maxRequestsPerSocket;
      }
      return server;
    },
    serve() {
      if (!taken) throw new Error('serve() before the app took the server (buildApp with serverFactory).');
      serving = taken;
      for (const [request, response] of waiting.splice(0)) serving(request, response);
    },
    async close() {
      for (const [, response] of waiting.splice(0)) {
        const body = problemBody('unavailable', 'The sandbox stopped before it was ready. Start it again (crm sandbox start).', newId('req'));
        response.writeHead(503, { 'content-type': 'application/problem+json; charset=utf-8', connection: 'close' }).end(JSON.stringify(body));
      }
      await Promise.all(servers.map((each) => new Promise<void>((resolve) => each.close(() => resolve()))));
    },
    closeAllConnections() {
      for (const each of servers) each.closeAllConnections();
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const listening = () => {
      server.off('error', reject);
      resolve();
    };
    const bound = boundSocket(port, host); // a port taken throws here: the promise rejects with it
    if (bound) server.listen(bound, listening);
    else server.listen({ port, host, exclusive: true }, listening);
  });
}

/** net.BoundSocket (Node 24; not in @types/node 22): a TCP socket bound at once, to a numeric address. */
type BoundSocketClass = new (options: { host: string; port: number }) => object;

/**
 * The address bound by net.BoundSocket where Node has it and the address is numeric (the
 * default, 127.0.0.1). listen({ host }) looks the address up with dns.lookup even when it is
 * one, then tests the answer against isIPv6's regular expression, compiled on that first use:
 * ~4.5 ms of every start (docs/benchmarks.md). null: listen({ host }) does it (Node 22, `localhost`).
 */
function boundSocket(port: number, host: string): object | null {
  const BoundSocket = (net as { BoundSocket?: BoundSocketClass }).BoundSocket;
  return BoundSocket && net.isIP(host) !== 0 ? new BoundSocket({ host, port }) : null;
}

/**
 * `--host localhost`: as Fastify does, the other addresses `localhost` has (::1 beside 127.0.0.1)
 * on the same port, so that either URL reaches the sandbox; one that cannot be bound (no IPv6) is
 * left out, the first address serves.
 */
async function otherLocalhostServers(main: Server, dispatch: RequestHandler): Promise<Server[]> {
  const { address, port } = main.address() as AddressInfo;
  const others: Server[] = [];
  // node:dns/promises only here: a start on 127.0.0.1, the default, does not load it. Not import():
  // in the CLI's bundle that goes through vm's experimental loader, which Node warns about.
  const { lookup } = process.getBuiltinModule('node:dns/promises');
  for (const other of await lookup('localhost', { all: true }).catch(() => [])) {
    if (other.address === address) continue;
    const server = createServer(dispatch);
    try {
      await listen(server, port, other.address);
      others.push(server);
    } catch {
      // that family is not available here
    }
  }
  return others;
}
