import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { CrmClient } from '../../src/client/client.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/**
 * A server limited to 20 requests a second answers `t=1` and `Retry-After: 1` however little of
 * the window is left: whole seconds, rounded up. The client's pacer saw the window begin (its first
 * answer, 19 left), so after a 429 it waits for that window's end, not for a whole second more.
 */
describe('a 429 rate_limited', () => {
  it('is retried when the window the client saw begin has ended, sooner than Retry-After', async () => {
    let calls = 0;
    server = createServer((_request, response) => {
      calls++;
      const headers = { 'content-type': 'application/json', 'ratelimit-policy': '"burst";q=20;w=1' };
      if (calls === 2) {
        response.writeHead(429, { ...headers, 'content-type': 'application/problem+json', 'retry-after': '1', ratelimit: '"burst";r=0;t=1' });
        response.end(JSON.stringify({ status: 429, code: 'rate_limited', detail: 'Too many requests.' }));
        return;
      }
      response.writeHead(200, { ...headers, ratelimit: `"burst";r=${calls === 1 ? 19 : 18};t=1` });
      response.end('{"data":[],"next_cursor":null}');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const retries: number[] = [];
    const client = new CrmClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'crm_test_x', onRetry: (retry) => retries.push(retry.delayMs) });
    await client.get('/v1/leads'); // 19 left: the window began no later than now
    await sleep(300);
    await client.get('/v1/leads'); // 429, then retried
    await client.close();
    expect(calls).toBe(3);
    expect(retries).toHaveLength(1);
    // At least 300 ms of the window had gone: at most ~700 ms were left of it, not Retry-After's 1000.
    expect(retries[0]).toBeGreaterThan(0);
    expect(retries[0]).toBeLessThanOrEqual(700);
  });

  it('waits Retry-After when the client has not seen its window begin', async () => {
    server = createServer((_request, response) => {
      response.writeHead(429, {
        'content-type': 'application/problem+json',
        'retry-after': '1',
        ratelimit: '"burst";r=0;t=1',
        'ratelimit-policy': '"burst";q=20;w=1',
      });
      response.end(JSON.stringify({ status: 429, code: 'rate_limited', detail: 'Too many requests.' }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const retries: number[] = [];
    const client = new CrmClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'crm_test_x',
      retry: { maxRetries: 1 },
      onRetry: (retry) => retries.push(retry.delayMs),
    });
    await expect(client.get('/v1/leads')).rejects.toThrow();
    await client.close();
    expect(retries).toHaveLength(1);
    expect(retries[0]).toBeGreaterThan(900); // the pacer's hold is now + t: the same second
  });
});
