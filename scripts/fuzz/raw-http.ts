import { Agent, request, type IncomingHttpHeaders } from 'node:http';

/**
 * One HTTP request whose target goes on the wire exactly as given: fetch, undici and `new URL`
 * resolve `/./`, `/../` and `%2e%2e` before sending, which would hide the very paths the path fuzzer
 * is about. The Host header may be set (a foreign one is how DNS rebinding looks to the server).
 */
export interface RawRequest {
  method: string;
  /** The request target, sent verbatim: path and query. */
  target: string;
  headers?: Record<string, string>;
  body?: string;
  /** A server that does not answer in this time is reported as hanging (not a timing check: a generous bound). */
  timeoutMs?: number;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

export class NoAnswer extends Error {}

export function rawRequest(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { agent, host: hostname, port, method: req.method, path: req.target, headers: req.headers ?? {}, timeout: req.timeoutMs ?? 60_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new NoAnswer(`no answer to ${req.method} ${req.target.slice(0, 200)} within ${req.timeoutMs ?? 60_000} ms`)));
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}
