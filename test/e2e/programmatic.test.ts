import { describe, expect, it } from 'vitest';
// The built package entry, as `import { startSandbox } from 'crm-sandbox'` resolves it.
import { startSandbox } from '../../dist/index.js';
import { signIn } from '../helpers/dashboard.js';

const get = async (base: string, key: string, path: string) =>
  (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } })).json() as Promise<any>;

describe('startSandbox() for test runners', () => {
  it('runs two isolated sandboxes on two free ports in one process, with reset and stop', async () => {
    const a = await startSandbox({ seed: false });
    const b = await startSandbox();
    try {
      expect(a.baseUrl).not.toBe(b.baseUrl);
      expect(a.apiKey).toMatch(/^crm_test_/);
      expect(b.apiKey).not.toBe(a.apiKey);
      // The sign-in link `crm sandbox start` prints, for a browser test of an in-process sandbox.
      expect(await signIn(a.baseUrl, a.dashboardUrl!)).toMatch(/^crm_session_\d+=/);

      const created = await fetch(`${a.baseUrl}/v1/leads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ first_name: 'Only in A' }),
      });
      expect(created.status).toBe(201);
      expect((await get(a.baseUrl, a.apiKey!, '/v1/leads')).data).toHaveLength(1);
      const seededLeads = (await get(b.baseUrl, b.apiKey!, '/v1/leads?limit=1000')).data;
      expect(seededLeads.length).toBeGreaterThan(0);
      expect(seededLeads.some((l: { first_name: string }) => l.first_name === 'Only in A')).toBe(false);
      // A's key means nothing to B.
      expect((await fetch(`${b.baseUrl}/v1/leads`, { headers: { authorization: `Bearer ${a.apiKey}` } })).status).toBe(401);

      await a.reset();
      expect((await get(a.baseUrl, a.apiKey!, '/v1/leads')).data).toHaveLength(0);
      await b.reset();
      expect((await get(b.baseUrl, b.apiKey!, '/v1/leads?limit=1000')).data).toHaveLength(seededLeads.length);
    } finally {
      await a.stop();
      await b.stop();
    }
    await expect(fetch(`${a.baseUrl}/healthz`)).rejects.toThrow();
  });
});
