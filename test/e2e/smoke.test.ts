import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startSandboxProcess, type ApiClient, type RunningSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let api: ApiClient;

beforeAll(async () => {
  sandbox = await startSandboxProcess();
  api = apiClient(sandbox);
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('smoke', () => {
  it('serves seeded deals', async () => {
    const res = await api.get('/v1/deals?limit=5');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(5);
  });
});
