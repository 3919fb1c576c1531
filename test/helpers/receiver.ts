import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got, and what it answered. */
export interface Received {
  n: number;
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  at: number;
}

/** A status, a status with headers, or 'hang': take the request and never answer (the sender's timeout must end it). */
export type Answer = number | { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A webhook receiver for tests: a real node:http server on 127.0.0.1 and a free port, recording
 * every request (raw body and headers, for signature checks) and answering what `answer` says
 * (200 by default; status 0 for a request it let hang). `answer` gets the request number (1-based) and the count of earlier requests
 * with the same webhook-id, so "fail N times, then succeed" is one line. It may return a promise:
 * the request is recorded on arrival and answered when the promise settles (status 0 until then),
 * so a test can act while the sender waits.
 */
export async function startReceiver(answer: (r: { n: number; id: string; body: string; seen: number }) => Answer | Promise<Answer> = () => 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id'] ?? '');
      const seen = received.filter((r) => r.id === id).length;
      const entry: Received = { n: received.length + 1, id, headers: req.headers, body, status: 0, at: Date.now() };
      const reply = answer({ n: entry.n, id, body, seen });
      received.push(entry);
      const send = (reply: Answer) => {
        if (reply === 'hang') return;
        const { status, headers } = typeof reply === 'number' ? { status: reply, headers: {} } : reply;
        entry.status = status;
        res.writeHead(status, { 'content-type': 'text/plain', ...headers });
        res.end('ok');
      };
      if (reply instanceof Promise) void reply.then(send);
      else send(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Requests answered 2xx, per webhook-id. */
    successes(id: string): number {
      return received.filter((r) => r.id === id && r.status >= 200 && r.status < 300).length;
    },
    /** Waits until `done()` holds, polling; fails with `what` after `timeoutMs`. */
    async waitFor(what: string, done: () => boolean, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; received ${received.length} request(s)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Polls an async condition (e.g. an API read) until it holds; fails with `what` after `timeoutMs`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
