import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';
import { tempDir, useSandbox, type RunningSandbox } from '../helpers/sandbox.js';
import { dbValue, readCsv } from '../helpers/sync.js';

/**
 * `crm sync import` of a file with a field longer than --max-field-size (docs/sync.md, "Fields
 * too long"): it stops at that row with a message saying how to go on, the full batches before it
 * are imported once, and a higher cap with --resume goes on from there.
 */
let sandbox: RunningSandbox;
const tmp = tempDir('crm-sync-field-cap-');

useSandbox(['--no-seed', '--rate-limit', '0'], (started) => {
  sandbox = started;
});
afterAll(() => tmp.remove());

// 1200 leads (lines 2-1201), one whose notes are 3 MB long (line 1202), then 3 more (1203-1205).
const file = join(tmp.path, 'leads.csv');
const results = join(tmp.path, 'results');
const before = Array.from({ length: 1200 }, (_, i) => `cap-${i + 1},Lead ${i + 1},fine\n`).join('');
const big = `cap-big,Big,"${'lorem ipsum, "" dolor sit amet. '.repeat(100_000)}"\n`; // 3.2 MB as written
const after = Array.from({ length: 3 }, (_, i) => `cap-after-${i + 1},After ${i + 1},fine\n`).join('');
writeFileSync(file, `external_id,first_name,notes\n${before}${big}${after}`);

const crmImport = (...args: string[]) =>
  runCrm(['sync', 'import', 'leads', file, '--mode', 'create', '--results', results, ...args], { CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey });
const leads = () => dbValue(sandbox.db, "SELECT count(*) FROM leads WHERE external_id LIKE 'cap-%'");
const distinctLeads = () => dbValue(sandbox.db, "SELECT count(DISTINCT external_id) FROM leads WHERE external_id LIKE 'cap-%'");

describe('crm sync import: a field longer than --max-field-size', () => {
  it('stops at that row, exit 1: the full batches before it imported, the rest of them in unprocessed.csv, nothing after it read', async () => {
    const run = await crmImport();
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^1,200 rows: 1,000 created, 200 not sent in /);
    expect(run.stdout).toContain(
      'Stopped early: Field 3 ("notes") of the row on line 1202 is longer than 1,048,576 characters, the most a field may have. ' +
        'If it is meant to be that long, raise the cap with --max-field-size (now 1M; e.g. --max-field-size 4M).',
    );
    expect(run.stdout).toContain(
      'Nothing after that row was read; the 200 row(s) after the last full batch were not sent (unprocessed.csv). With a higher --max-field-size, rerun the same command with --resume to go on.',
    );
    expect(leads()).toBe(1000);
    expect(readCsv(join(results, 'succeeded.csv'))).toHaveLength(1000);
    const unprocessed = readCsv(join(results, 'unprocessed.csv'));
    expect(unprocessed.map((r) => r.line)).toEqual(Array.from({ length: 200 }, (_, i) => String(1002 + i)));
    expect(unprocessed[0]).toEqual({ external_id: 'cap-1001', first_name: 'Lead 1001', notes: 'fine', line: '1002' });
  });

  it('a dry run of a file whose quote is never closed (30 MB of field) checks every row before it and stops at the cap', async () => {
    const broken = join(tmp.path, 'broken.csv');
    writeFileSync(broken, `external_id,first_name,notes\n${before}cap-big,Big,"never closed, ${'lorem ipsum\n'.repeat(2_500_000)}`);
    const run = await runCrm(['sync', 'import', 'leads', broken, '--dry-run', '--results', join(tmp.path, 'dry')]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^1,200 rows checked: 1,200 valid, 0 invalid \(nothing was sent\) /);
    expect(run.stdout).toContain('Stopped early: Field 3 ("notes") of the row on line 1202 is longer than 1,048,576 characters');
    expect(run.stdout).toContain('If not, the quote that opens it is probably never closed, which makes the rest of the file one field: fix the file.');
    expect(existsSync(join(tmp.path, 'dry', 'unprocessed.csv'))).toBe(false);
  });

  it('run again as it was, it replays the batches it sent (nothing written twice, even with --mode create) and stops at the same row', async () => {
    const run = await crmImport('--json');
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      summary: { created: 1000, failed: 0 },
      rows: 1200,
      unprocessed: 200,
      replayed: { batches: 2, rows: 1000 },
      stopped: expect.stringMatching(/^Field 3 \("notes"\) of the row on line 1202 /),
    });
    expect(leads()).toBe(1000);
  });

  it('with --max-field-size 4MB and --resume, goes on from the batch it stopped in: the long row fails on its own, the others are imported once', async () => {
    const run = await crmImport('--max-field-size', '4MB', '--resume', '--json');
    expect(run.code, run.stderr).toBe(1); // one row failed: notes are at most 10,000 characters
    expect(JSON.parse(run.stdout)).toMatchObject({ summary: { created: 1203, failed: 1 }, rows: 1204 });
    expect(JSON.parse(run.stdout).stopped).toBeUndefined();
    expect([leads(), distinctLeads()]).toEqual([1203, 1203]);
    expect(readCsv(join(results, 'failed.csv')).map((r) => [r.line, r.external_id, r.error_code, r.error_message])).toEqual([
      ['1202', 'cap-big', 'validation_failed', expect.stringMatching(/^notes: /)],
    ]);
    expect(existsSync(join(results, 'unprocessed.csv'))).toBe(false);
  });
});
