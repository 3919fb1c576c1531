import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';
import { tempDir, type ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { FIXTURES, dbValue, defineFields, readCsv, writeLeadsCsv } from '../helpers/sync.js';

let sandbox: RunningApp;
let api: ApiClient;
const tmp = tempDir('crm-sync-import-');

useApp({ rateLimit: '0' }, (started, client) => {
  sandbox = started;
  api = client;
});
afterAll(() => {
  tmp.remove();
});
// The fixtures' custom.<key> columns fill these fields (docs/sync.md#custom-fields).
beforeAll(async () => {
  await defineFields(api, 'lead', { score: 'number', newsletter: 'boolean', shoe_size: 'number' });
  await defineFields(api, 'client', { tier: 'text' });
});

let runs = 0;
/** `crm sync import …` against the test sandbox, with its own results folder. */
async function importFile(resource: string, file: string, ...args: string[]) {
  const results = join(tmp.path, `results-${++runs}`);
  const run = await runCrm(['sync', 'import', resource, file, '--results', results, ...args], { CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey });
  return { ...run, results, json: () => JSON.parse(run.stdout) as { summary: Record<string, number>; rows: number; results_dir: string; duration_ms: number } };
}

const lead = async (externalId: string) => {
  const res = await api.get(`/v1/leads?external_id=${encodeURIComponent(externalId)}`);
  expect(res.body.data, externalId).toHaveLength(1);
  return res.body.data[0];
};

describe('crm sync import', () => {
  it('imports leads-good.csv with every field, and prints one JSON line with --json', async () => {
    const run = await importFile('leads', join(FIXTURES, 'leads-good.csv'), '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const out = run.json();
    expect(Object.keys(out).sort()).toEqual(['batches', 'duration_ms', 'results_dir', 'rows', 'summary']);
    expect(out).toMatchObject({ summary: { created: 5, updated: 0, unchanged: 0, failed: 0 }, rows: 5, results_dir: run.results });

    expect(await lead('good-1')).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      phone: '+44 20 7946 0001',
      company: 'Analytical Engines',
      title: 'CTO',
      source: 'referral',
      status: 'new',
      tags: ['vip', 'partner'],
      custom_fields: { score: 42, newsletter: true },
      notes: 'Met at the conference',
    });
    expect(await lead('good-3')).toMatchObject({ phone: null, tags: [], custom_fields: { score: 3.5 }, status: 'qualified' });
    expect(await lead('good-5')).toMatchObject({ first_name: null, company: 'Acme Corp', source: 'cold_call', status: 'unqualified' });

    const succeeded = readCsv(join(run.results, 'succeeded.csv'));
    expect(succeeded.map((r) => r.line).sort()).toEqual(['2', '3', '4', '5', '6']);
    expect(succeeded.find((r) => r.line === '2')).toEqual({ line: '2', id: (await lead('good-1')).id, status: 'created' });
    expect(readCsv(join(run.results, 'failed.csv'))).toEqual([]);
    expect(existsSync(join(run.results, 'unprocessed.csv'))).toBe(false);
  });

  it('a rerun of the same file replays the first run (same batches, same keys): nothing written, no events', async () => {
    const events = dbValue(sandbox.db, 'SELECT count(*) FROM events');
    const leads = dbValue(sandbox.db, 'SELECT count(*) FROM leads');
    const run = await importFile('leads', join(FIXTURES, 'leads-good.csv'), '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.json().summary).toEqual({ created: 5, updated: 0, unchanged: 0, failed: 0 }); // the stored responses
    expect(dbValue(sandbox.db, 'SELECT count(*) FROM events')).toBe(events);
    expect(dbValue(sandbox.db, 'SELECT count(*) FROM leads')).toBe(leads);
    // Another batch size makes other batches (other keys): now the upsert itself finds nothing to change.
    const rebatched = await importFile('leads', join(FIXTURES, 'leads-good.csv'), '--json', '--batch-size', '2');
    expect(rebatched.json().summary).toEqual({ created: 0, updated: 0, unchanged: 5, failed: 0 });
    expect(dbValue(sandbox.db, 'SELECT count(*) FROM events')).toBe(events);
  });

  it('puts bad rows in failed.csv with their columns, line and reason, imports the good ones, and exits 1', async () => {
    const run = await importFile('leads', join(FIXTURES, 'leads-bad.csv'));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^7 rows: 2 created, 5 failed in /); // the headline adds up to the rows read
    const failed = readCsv(join(run.results, 'failed.csv'));
    expect(failed.map((r) => [r.line, r.external_id, r.error_code])).toEqual([
      ['3', 'bad-2', 'validation_failed'],
      ['4', 'bad-3', 'validation_failed'],
      ['5', 'bad-4', 'validation_failed'],
      ['7', 'bad-6', 'invalid_row'],
      ['8', 'bad-7', 'validation_failed'],
    ]);
    expect(failed[0]).toMatchObject({ first_name: 'Broken', email: 'not-an-email', error_message: 'email: Invalid email address' });
    expect(failed[1]!.error_message).toMatch(/^source: /);
    expect(failed[2]!.error_message).toMatch(/at least one of first_name/);
    expect(failed[4]!.error_message).toMatch(/^status: /);
    expect(readCsv(join(run.results, 'succeeded.csv')).map((r) => r.line)).toEqual(['2', '6']);
    expect(dbValue(sandbox.db, "SELECT count(*) FROM leads WHERE external_id LIKE 'bad-%'")).toBe(2);
  });

  it('keeps quoted multi-line fields intact', async () => {
    const run = await importFile('leads', join(FIXTURES, 'leads-multiline.csv'));
    expect(run.code, run.stderr).toBe(0);
    expect((await lead('ml-1')).notes).toBe('First line\nsecond line, with a comma\nand a "quoted" word');
    expect(await lead('ml-3')).toMatchObject({ first_name: 'Quoted, Name', notes: 'ends with a newline\n' });
    expect(
      readCsv(join(run.results, 'succeeded.csv'))
        .map((r) => r.line)
        .sort(),
    ).toEqual(['2', '5', '6']);
  });

  it('detects a semicolon delimiter and a UTF-8 BOM', async () => {
    expect((await importFile('leads', join(FIXTURES, 'leads-semicolon.csv'))).code).toBe(0);
    expect(await lead('semi-1')).toMatchObject({ company: 'Société Générale', notes: 'Paris; bureau 4' });
    expect((await importFile('leads', join(FIXTURES, 'leads-bom.csv'))).code).toBe(0);
    expect(await lead('bom-2')).toMatchObject({ first_name: 'Łukasz', last_name: 'Żółw' });
  });

  it('reads Latin-1 with --encoding latin1, and refuses it as UTF-8 (exit 2) without writing anything', async () => {
    const refused = await importFile('leads', join(FIXTURES, 'leads-latin1.csv'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not valid UTF-8.*--encoding latin1/);
    expect(dbValue(sandbox.db, "SELECT count(*) FROM leads WHERE external_id LIKE 'lat-%'")).toBe(0);
    const run = await importFile('leads', join(FIXTURES, 'leads-latin1.csv'), '--encoding', 'latin1');
    expect(run.code, run.stderr).toBe(0);
    expect(await lead('lat-1')).toMatchObject({ first_name: 'José', last_name: 'Müller', company: 'Café Olé', notes: 'Straße über München' });
  });

  it('imports clients with their address and primary contact person', async () => {
    const run = await importFile('clients', join(FIXTURES, 'clients-contacts.csv'), '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.json().summary.created).toBe(3);
    const [acme] = (await api.get('/v1/clients?external_id=cli-1')).body.data;
    expect(acme).toMatchObject({
      name: 'Acme GmbH',
      kind: 'company',
      website: 'https://acme.example',
      tags: ['enterprise', 'dach'],
      custom_fields: { tier: 'gold' },
      address: { line1: 'Hauptstraße 1', line2: null, city: 'Berlin', region: null, postal_code: '10115', country: 'DE' },
    });
    expect(acme.contacts).toHaveLength(1);
    expect(acme.contacts[0]).toMatchObject({ first_name: 'Jana', last_name: 'Schmidt', email: 'jana@acme.example', role: 'CEO', is_primary: true });
    const [erika] = (await api.get('/v1/clients?external_id=cli-3')).body.data;
    expect(erika).toMatchObject({ kind: 'person', contacts: [], address: { city: 'Köln' } });
  });

  it('--dry-run validates without sending (no key needed) and reports the bad rows', async () => {
    const before = dbValue(sandbox.db, 'SELECT count(*) FROM leads');
    const results = join(tmp.path, 'dry');
    const run = await runCrm(['sync', 'import', 'leads', join(FIXTURES, 'leads-bad.csv'), '--dry-run', '--results', results, '--json'], {
      CRM_API_KEY: '',
      CRM_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ summary: { failed: 5, created: 0 }, rows: 7, dry_run: true });
    expect(readCsv(join(results, 'failed.csv'))).toHaveLength(5);
    expect(dbValue(sandbox.db, 'SELECT count(*) FROM leads')).toBe(before);
  });

  it('--map renames and drops columns; unknown columns and bad options are usage errors (exit 2)', async () => {
    const file = join(tmp.path, 'mapped.csv');
    writeFileSync(file, 'Kennung,Vorname,Schuhgröße\nmap-1,Heidi,38\n');
    const unknown = await importFile('leads', file);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown column\(s\) for leads: "Kennung", "Vorname", "Schuhgröße"/);
    const run = await importFile('leads', file, '--map', 'Kennung=external_id,Vorname=first_name,Schuhgröße=custom.shoe_size');
    expect(run.code, run.stderr).toBe(0);
    expect(await lead('map-1')).toMatchObject({ first_name: 'Heidi', custom_fields: { shoe_size: 38 } });
    expect((await importFile('leads', file, '--batch-size', '5000')).code).toBe(2);
    expect((await importFile('deals', file)).code).toBe(2);
    const resume = await importFile('leads', file, '--resume', '--map', 'Kennung=external_id,Vorname=first_name,Schuhgröße=');
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(/Nothing to resume/);
  });

  it('a rerun in create mode replays its batches (Idempotency-Key = hash of the batch) instead of creating twice', async () => {
    const file = join(tmp.path, 'create.csv');
    await writeLeadsCsv(file, 1200, { prefix: 'create' });
    for (let i = 0; i < 2; i++) {
      const run = await importFile('leads', file, '--mode', 'create', '--batch-size', '500', '--json');
      expect(run.code, run.stderr).toBe(0);
      expect(run.json().summary.created).toBe(1200); // the replayed responses say created, as the first time
    }
    expect(dbValue(sandbox.db, "SELECT count(*) FROM leads WHERE email LIKE 'create%'")).toBe(1200);
    expect(dbValue(sandbox.db, "SELECT count(*) FROM idempotency_keys WHERE key LIKE 'crm-sync-%'")).toBeGreaterThanOrEqual(3);
  });
});
