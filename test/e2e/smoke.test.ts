import { describe, expect, it } from 'vitest';
import { type ApiClient, type RunningSandbox, useSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let api: ApiClient;

useSandbox([], (s, a) => {
  sandbox = s;
  api = a;
});

describe('smoke', () => {
  it('serves seeded deals', async () => {
    const res = await api.get('/v1/deals?limit=5');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(5);
  });
});
