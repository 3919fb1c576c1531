import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp } from '../helpers/app.js';

let api: ApiClient;

useApp({ seed: 1 }, (_s, a) => {
  api = a;
});

describe('smoke', () => {
  it('serves seeded deals', async () => {
    const res = await api.get('/v1/deals?limit=5');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(5);
  });
});
