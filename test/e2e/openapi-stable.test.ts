// The resource schemas are built when first used (src/schemas/lazy.ts), so zod registers them in
// the order a sandbox's requests ask for them. The OpenAPI document must not depend on that: the
// one a sandbox serves after writes is, byte for byte, the one `crm openapi` prints (but servers).
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRM_BIN, apiClient, startSandboxProcess, type RunningSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandboxProcess();
});
afterAll(() => sandbox.stop());

describe('the OpenAPI document', () => {
  it('is the same whatever the sandbox served before it was asked for', async () => {
    const api = apiClient(sandbox);
    // Writes that build their schemas first (a deal, a bulk body, a webhook endpoint), in no order of the document's.
    expect((await api.post('/v1/deals', { title: 'Pilot', value: 10, currency: 'EUR', stage: 'proposal' })).status).toBe(201);
    expect((await api.post('/v1/leads/bulk', { mode: 'create', records: [{ first_name: 'Ada' }] })).status).toBe(200);
    expect((await api.post('/v1/webhook_endpoints', { url: 'http://localhost:9/hook' })).status).toBe(201);
    // Without a credential: the generic document, which `crm openapi` prints (with one, the account's).
    const served = (await api.get('/v1/openapi.json', { key: null })).body as Record<string, unknown>;
    const printed = JSON.parse(execFileSync(process.execPath, [CRM_BIN, 'openapi'], { encoding: 'utf8', maxBuffer: 64 << 20 })) as Record<string, unknown>;
    const withoutServers = ({ servers: _servers, ...rest }: Record<string, unknown>) => JSON.stringify(rest);
    expect(withoutServers(served)).toBe(withoutServers(printed));
    const names = Object.keys((served.components as { schemas: Record<string, unknown> }).schemas);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('DealCreateInput');
  });
});
