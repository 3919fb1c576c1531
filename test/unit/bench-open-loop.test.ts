import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLoop } from '../../bench/open-loop.js';
import { percentile } from '../../bench/stats.js';

/**
 * The bench's open-loop load generator (bench/open-loop.js, docs/benchmarks.md: p99 at 300 req/s offered)
 * must time each request from when it was due, so that a server's stall is paid for by every
 * request that was due during it, not only by the one that stalled (coordinated omission). A real
 * server on a real port: one answer held 80 ms, every other one at once.
 */
const STALL_MS = 80;
const STALLED_REQUEST = 20;

let server: Server;
let base = '';
let seen = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/down') {
      response.writeHead(503).end();
      return;
    }
    if (request.url === '/hang') return; // never answered
    const nth = ++seen;
    const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    if (nth === STALLED_REQUEST) setTimeout(answer, STALL_MS);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('bench open-loop load generator', () => {
  it('sends rate × seconds requests and charges a stall to every request due during it', async () => {
    seen = 0;
    // One connection, a request due every 5 ms: ~16 requests fall due during the 80 ms stall and
    // wait behind it. Timed from when each was sent, only the stalled one would look slow.
    const { latencies, failures } = await openLoop({ url: `${base}/ok`, rate: 200, seconds: 1, connections: 1 });
    expect(latencies).toHaveLength(200);
    expect(failures).toBe(0);
    expect(seen).toBe(200);
    expect(Math.max(...latencies)).toBeGreaterThanOrEqual(STALL_MS - 1);
    // Those due in the stall's first half still waited at least its second half.
    expect(latencies.filter((ms) => ms >= STALL_MS / 2).length).toBeGreaterThanOrEqual(5);
  });

  it('counts answers outside 2xx as failures, and still times them', async () => {
    const { latencies, failures } = await openLoop({ url: `${base}/down`, rate: 100, seconds: 0.2, connections: 2 });
    expect(latencies).toHaveLength(20);
    expect(failures).toBe(20);
    expect(latencies.every((ms) => Number.isFinite(ms) && ms >= 0)).toBe(true);
  });

  it('fails a request with no answer within the timeout instead of waiting for it', async () => {
    const { latencies, failures } = await openLoop({ url: `${base}/hang`, rate: 50, seconds: 0.1, connections: 5, timeoutMs: 200 });
    expect(latencies).toHaveLength(5);
    expect(failures).toBe(5);
    expect(Math.min(...latencies)).toBeGreaterThanOrEqual(200 - 1);
  });

  it('takes the percentile as the smallest value with that share at or below it', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
  });
});
