import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { CrmClient } from '../../src/client/client.js';
import { CrmNetworkError } from '../../src/client/errors.js';

/** A port that was free a moment ago and has nothing listening on it. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/**
 * A refused connection on a command a person waits for (`crm keys list`) fails on the first try:
 * no retry loop in front of "the sandbox is not running". Long jobs keep their retries.
 */
describe('a refused connection', () => {
  it('is not retried when retryRefused is false, and says that nothing listens there', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const retries: string[] = [];
    const client = new CrmClient({
      baseUrl,
      apiKey: 'crm_test_x',
      retry: { maxRetries: 2, baseDelayMs: 1 },
      retryRefused: false,
      onRetry: (r) => retries.push(r.reason),
    });
    const error = await client.get('/v1/api_keys').catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(CrmNetworkError);
    expect((error as CrmNetworkError).refused).toBe(true);
    expect((error as Error).message).toContain('nothing listens there (connection refused)');
    expect(retries).toEqual([]);
  });

  it('is retried by default (an import waits for a server that restarts)', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const retries: string[] = [];
    const client = new CrmClient({ baseUrl, apiKey: 'crm_test_x', retry: { maxRetries: 2, baseDelayMs: 1 }, onRetry: (r) => retries.push(r.reason) });
    await expect(client.get('/v1/api_keys')).rejects.toBeInstanceOf(CrmNetworkError);
    await client.close();
    expect(retries).toHaveLength(2);
  });
});
