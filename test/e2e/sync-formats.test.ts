import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCrm } from '../helpers/cli-process.js';
import { type ApiClient, tempDir } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { FIXTURES, defineFields, readCsv } from '../helpers/sync.js';

/** JSON Lines out and in, and imports from stdin (docs/sync.md#formats). */
let sandbox: RunningApp;
let api: ApiClient;
useApp({ rateLimit: '0' }, (s, a) => {
  sandbox = s;
  api = a;
});
const dir = tempDir('crm-formats-');
afterAll(() => dir.remove());
// The custom fields the records hold (docs/sync.md#custom-fields).
beforeAll(() => defineFields(api, 'lead', { score: 'number', vip: 'boolean', note: 'text' }));
const env = () => ({ CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey });

describe('JSON Lines and stdin', () => {
  it('a CSV piped on stdin imports (results in stdin.results of the current folder)', async () => {
    const res = await runCrm(['sync', 'import', 'clients', '-', '--json'], env(), {
      input: 'name,external_id,address.city\nAcme,f-1,Berlin\nGlobex,f-2,Paris\n',
      cwd: dir.path,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).summary).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 0 });
    expect(readCsv(join(dir.path, 'stdin.results', 'succeeded.csv')).map((r) => r.line)).toEqual(['2', '3']);
    const leads = await runCrm(['sync', 'import', 'leads', '-', '--results', join(dir.path, 'leads-in'), '--json'], env(), {
      input: readFileSync(join(FIXTURES, 'plan', 'before.csv'), 'utf8'),
    });
    expect(JSON.parse(leads.stdout).summary.created).toBe(3);
  });

  it('exports JSON Lines that import back as all unchanged, nested and typed fields intact', async () => {
    await api.post('/v1/leads/bulk', {
      mode: 'upsert',
      records: [{ external_id: 'j-1', first_name: 'Jo', tags: ['a|b', 'c'], custom_fields: { score: 5, vip: true, note: '42' } }],
    });
    const out = join(dir.path, 'leads.jsonl');
    const exported = await runCrm(['sync', 'export', 'leads', '--out', out], env());
    expect(exported.code, exported.stderr).toBe(0);
    const records = readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(4);
    expect(records.find((r) => r.external_id === 'j-1')).toMatchObject({ tags: ['a|b', 'c'], custom_fields: { score: 5, vip: true, note: '42' } });

    const back = await runCrm(['sync', 'import', 'leads', out, '--results', join(dir.path, 'back'), '--json'], env());
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout).summary).toEqual({ created: 0, updated: 0, unchanged: 4, failed: 0 });

    const stdout = await runCrm(['sync', 'export', 'clients', '--format', 'jsonl'], env());
    const clients = stdout.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(clients.map((c) => c.address.city).sort()).toEqual(['Berlin', 'Paris']);
  });

  it('a line that is not JSON fails with its line number; the other lines import', async () => {
    const file = join(dir.path, 'mixed.jsonl');
    writeFileSync(
      file,
      [
        '{"external_id":"m-1","first_name":"Mia"}',
        '{"external_id":"m-2", first_name}',
        '[1,2]',
        '',
        '{"external_id":"m-3","first_name":"Max","address":{"city":"Oslo"}}',
      ].join('\n') + '\n',
    );
    const results = join(dir.path, 'mixed');
    const res = await runCrm(['sync', 'import', 'leads', file, '--results', results, '--json'], env());
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).summary).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 2 });
    const failed = readCsv(join(results, 'failed.csv'));
    expect(failed.map((f) => [f.line, f.error_code])).toEqual([
      ['2', 'invalid_json'],
      ['3', 'invalid_json'],
    ]);
    expect(failed[0]!.error_message).toContain('line 2: not JSON');
    expect(failed[1]!.error_message).toContain('line 3: not a JSON object');
    expect(readCsv(join(results, 'succeeded.csv')).map((r) => r.line)).toEqual(['1', '5']);
  });

  it('refuses --resume from stdin, and empty stdin, as usage errors', async () => {
    const resume = await runCrm(['sync', 'import', 'leads', '-', '--resume'], env(), { input: 'a\n' });
    expect(resume.code).toBe(2);
    expect(resume.stderr).toContain('stdin cannot be read again');
    const empty = await runCrm(['sync', 'import', 'leads', '-'], env(), { input: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('stdin was empty');
  });
});
