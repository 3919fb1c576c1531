import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';
import { tempDir, type ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { readCsv } from '../helpers/sync.js';

/**
 * What a new user met in `crm sync` (docs/sync.md): enum cells in any case, a headline that adds up,
 * a rerun that says it was replayed, --bom for Excel, and one line per wait instead of one per retry.
 */
let sandbox: RunningApp;
let api: ApiClient;
const tmp = tempDir('crm-sync-edges-');
const env = () => ({ CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey });
const crm = (args: string[]) => runCrm(args, env(), { cwd: tmp.path });
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

// 10 rows, 2 of them with a bad email; statuses and sources as spreadsheets spell them.
const csv = join(tmp.path, 'leads.csv');
const statuses = ['New', 'CONTACTED', 'Qualified', 'unQualified', 'new', 'Contacted', 'NEW', 'qualified', 'New', 'New'];
writeFileSync(
  csv,
  'external_id,first_name,email,status,source\n' +
    statuses
      .map((status, i) => `edge-${i},Zoë ${i},${i === 3 || i === 7 ? 'not-an-email' : `zoe${i}@example.com`},${status},${i % 2 ? 'Cold Call' : 'WEB'}`)
      .join('\n') +
    '\n',
);

useApp({ rateLimit: '0' }, (started, client) => {
  sandbox = started;
  api = client;
});
afterAll(() => {
  tmp.remove();
});

describe('crm sync import', () => {
  it('reads enum cells in any case, and its headline adds up to the rows read', async () => {
    const run = await crm(['sync', 'import', 'leads', csv, '--batch-size', '4', '--results', join(tmp.path, 'first'), '--bom']);
    expect(run.code, run.stderr).toBe(1); // two rows failed
    expect(run.stdout.split('\n')[0]).toMatch(/^10 rows: 8 created, 2 failed in /);
    const lead = (await api.get('/v1/leads?external_id=edge-1')).body.data[0];
    expect(lead).toMatchObject({ status: 'contacted', source: 'cold_call' });
    const failed = readCsv(join(tmp.path, 'first', 'failed.csv'));
    expect(failed.map((r) => r.external_id).sort()).toEqual(['edge-3', 'edge-7']);
    expect(failed.every((r) => r.error_code === 'validation_failed')).toBe(true);
    // --bom: each results file starts with the UTF-8 byte-order mark (Excel then reads Zoë as Zoë).
    for (const name of ['succeeded.csv', 'failed.csv']) expect(readFileSync(join(tmp.path, 'first', name)).subarray(0, 3)).toEqual(BOM);
  });

  it('a rerun says its batches were replayed and that nothing was written again', async () => {
    const before = (await api.get('/v1/events?type=lead.created&limit=100')).body.data.length;
    const run = await crm(['sync', 'import', 'leads', csv, '--batch-size', '4', '--results', join(tmp.path, 'second')]);
    expect(run.stdout).toContain('Replayed 3 of 3 batches (lines 2-11)');
    expect(run.stdout).toContain('wrote nothing again');
    expect((await api.get('/v1/events?type=lead.created&limit=100')).body.data.length).toBe(before);
    const json = JSON.parse((await crm(['sync', 'import', 'leads', csv, '--batch-size', '4', '--results', join(tmp.path, 'third'), '--json'])).stdout);
    // The two rows with a bad email fail here, before sending: 8 rows went out, all replayed.
    expect(json).toMatchObject({ rows: 10, batches: 3, replayed: { batches: 3, rows: 8, lines: [[2, 11]] } });
    // Without --bom the files start with their header.
    expect(readFileSync(join(tmp.path, 'second', 'succeeded.csv'), 'utf8').startsWith('line,')).toBe(true);
  });

  it('a first import reports no replay', async () => {
    const other = join(tmp.path, 'other.csv');
    writeFileSync(other, 'external_id,last_name\nfresh-1,Ng\n');
    const json = JSON.parse((await crm(['sync', 'import', 'leads', other, '--json'])).stdout);
    expect(json).toMatchObject({ summary: { created: 1 }, batches: 1 });
    expect(json.replayed).toBeUndefined();
  });

  it('a server failing for a while gets one "waiting" line, not one per retry', async () => {
    await api.post('/_sandbox/faults', { method: 'POST', path_prefix: '/v1/leads/bulk', status: 503, count: 3 });
    const file = join(tmp.path, 'waits.csv');
    writeFileSync(file, 'external_id,last_name\nwait-1,Ito\n');
    const run = await crm(['sync', 'import', 'leads', file]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/waiting: /g)).toHaveLength(1);
    expect(run.stderr).toContain('the server is failing (503');
  });
});

describe('crm sync export --bom', () => {
  it('starts the file with a byte-order mark, which the import reads back as all unchanged', async () => {
    const out = join(tmp.path, 'export-bom.csv');
    const run = await crm(['sync', 'export', 'leads', '--out', out, '--bom']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('--bom');
    expect(readFileSync(out).subarray(0, 3)).toEqual(BOM);
    const back = JSON.parse((await crm(['sync', 'import', 'leads', out, '--json'])).stdout);
    expect(back.summary).toMatchObject({ created: 0, updated: 0, failed: 0 });
    expect(back.summary.unchanged).toBe(back.rows);
  });

  it('without it, no mark, and the hint after an export to a .csv file says how', async () => {
    const out = join(tmp.path, 'export-plain.csv');
    const run = await crm(['sync', 'export', 'leads', '--out', out]);
    expect(readFileSync(out).subarray(0, 3)).not.toEqual(BOM);
    expect(run.stdout).toContain('Export with --bom');
  });
});
