import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyServerOptions } from 'fastify';

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The sandbox's HTTP server, bound before anything else of a start is made (issue #27).
 *
 * Binding first is the port check: a start that cannot listen (EADDRINUSE, EACCES) fails before a
 * database file or an admin key exists. It used to be a probe listen and close, then a second
 * listen once the app was built (~5 ms of every start). Requests that arrive while the app is
 * being built are not refused: they wait, in order, and are answered as soon as it is ready, so a
 * client polling for the sandbox (CI, `crm sandbox wait`) gets its answer the moment there is one
 * instead of at its next retry. Fastify gets this server through its `serverFactory` option.
 */
export interface EarlyServer {
  server: Server;
  /** Fastify's `serverFactory`: this server, with Fastify's server settings; Fastify's handler is kept for serve(). */
  factory(handler: RequestHandler, options: FastifyServerOptions): Server;
  /** The app is ready: the requests that waited first, in arrival order, then every new one go to it. */
  serve(): void;
  /** Stops accepting connections; resolves once the open ones have ended. */
  close(): Promise<void>;
}

export function listenEarly(port: number, host: string): Promise<EarlyServer> {
  const waiting: [IncomingMessage, ServerResponse][] = [];
  const hold: RequestHandler = (request, response) => void waiting.push([request, response]);
  const server = createServer(hold);
  let appHandler: RequestHandler | null = null;
  const early: EarlyServer = {
    server,
    factory(handler, options) {
      appHandler = handler;
      // What Fastify sets on a server it makes itself (fastify/lib/server.js getServerInstance).
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
      if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
      if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
      if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    },
    serve() {
      if (!appHandler) throw new Error('serve() before the app took the server (buildApp with serverFactory).');
      server.off('request', hold);
      server.on('request', appHandler);
      for (const [request, response] of waiting.splice(0)) appHandler(request, response);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', reject);
      resolve(early);
    });
  });
}
