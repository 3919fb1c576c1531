import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { runCrm } from '../helpers/cli-process.js';
import { type ApiClient, tempDir } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { FIXTURES, dbValue, readCsv } from '../helpers/sync.js';

/** `crm sync import --plan` (docs/sync.md#plan---plan-and-bulk-dry_run): see what an import will change, then import it. */
let sandbox: RunningApp;
let api: ApiClient;
useApp({ rateLimit: '0' }, (s, a) => {
  sandbox = s;
  api = a;
});
const out = tempDir('crm-plan-');
afterAll(() => out.remove());
const env = () => ({ CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey });
const PLAN = join(FIXTURES, 'plan');

describe('crm sync import --plan', () => {
  it('plans without writing, and the import that follows does exactly what the plan said', async () => {
    const first = await runCrm(['sync', 'import', 'leads', join(PLAN, 'before.csv'), '--results', join(out.path, 'first'), '--json'], env());
    expect(first.code, first.stderr).toBe(0);
    const [leads, events] = [dbValue(sandbox.db, 'SELECT count(*) FROM leads'), dbValue(sandbox.db, 'SELECT count(*) FROM events')];

    const planDir = join(out.path, 'plan');
    const plan = await runCrm(['sync', 'import', 'leads', join(PLAN, 'after.csv'), '--plan', '--results', planDir, '--json'], env());
    expect(plan.code).toBe(1); // one row would fail
    const report = JSON.parse(plan.stdout);
    expect(report.summary).toEqual({ created: 1, updated: 2, unchanged: 1, failed: 1 });
    expect(report.plan).toBe(join(planDir, 'plan.csv'));
    expect(dbValue(sandbox.db, 'SELECT count(*) FROM leads')).toBe(leads);
    expect(dbValue(sandbox.db, 'SELECT count(*) FROM events')).toBe(events);

    const planned = readCsv(join(planDir, 'plan.csv'));
    const ids = Object.fromEntries(readCsv(join(out.path, 'first', 'succeeded.csv')).map((r) => [r.line, r.id]));
    // Rows are lines 2..6; the invalid row (line 5) fails locally and is in failed.csv, not sent.
    expect(planned).toEqual([
      { line: '2', status: 'updated', id: ids['2'], field: 'last_name', from: 'Lovelace', to: 'King' },
      { line: '2', status: 'updated', id: ids['2'], field: 'company', from: 'Analytical', to: 'Analytical Engines' },
      { line: '2', status: 'updated', id: ids['2'], field: 'status', from: 'new', to: 'contacted' },
      { line: '3', status: 'unchanged', id: ids['3'], field: '', from: '', to: '' },
      { line: '4', status: 'created', id: '', field: '', from: '', to: '' },
      { line: '6', status: 'updated', id: ids['4'], field: 'company', from: 'Bletchley', to: 'null' },
    ]);
    expect(readCsv(join(planDir, 'failed.csv')).map((r) => r.line)).toEqual(['5']);

    const real = await runCrm(['sync', 'import', 'leads', join(PLAN, 'after.csv'), '--results', join(out.path, 'real'), '--json'], env());
    expect(real.code).toBe(1);
    expect(JSON.parse(real.stdout).summary).toEqual(report.summary);
    const done = readCsv(join(out.path, 'real', 'succeeded.csv'));
    const planStatus = Object.fromEntries(planned.map((p) => [p.line, p.status]));
    for (const row of done) expect(planStatus[row.line as string], `line ${row.line}`).toBe(row.status);
    for (const change of planned.filter((p) => p.status === 'updated')) {
      const lead = (await api.get(`/v1/leads/${change.id}`)).body;
      expect(String(lead[change.field as string]), `${change.id} ${change.field}`).toBe(change.to);
    }
  });

  it('against a server without dry_run support: a clear error, and nothing written', async () => {
    // A server without bulk dry runs, as it answers a body with a field it does not know (strict bodies, docs/reference/basics.md#requests-and-responses).
    let requests = 0;
    const old = createServer((req, res) => {
      requests++;
      req.resume().on('end', () => {
        res.writeHead(422, { 'content-type': 'application/problem+json' });
        res.end(
          JSON.stringify({
            type: '/errors/validation_failed',
            title: 'Validation failed',
            status: 422,
            code: 'validation_failed',
            detail: 'The request body is invalid.',
            errors: [{ path: 'dry_run', code: 'unrecognized_keys', message: 'unknown field' }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve));
    try {
      const results = join(out.path, 'old');
      const res = await runCrm(['sync', 'import', 'leads', join(PLAN, 'after.csv'), '--plan', '--results', results], {
        CRM_BASE_URL: `http://127.0.0.1:${(old.address() as AddressInfo).port}`,
        CRM_API_KEY: 'crm_test_x',
      });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('does not support bulk dry runs');
      expect(res.stderr).toContain('Nothing was written');
      expect(requests).toBeGreaterThan(0);
      expect(existsSync(results)).toBe(false);
    } finally {
      old.close();
    }
  });

  it('refuses --plan with --dry-run (usage error)', async () => {
    const res = await runCrm(['sync', 'import', 'leads', join(PLAN, 'after.csv'), '--plan', '--dry-run'], env());
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--plan goes alone');
  });
});
