import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';
import { escapeFormula } from '../../src/sync/csv/formula-cells.js';
import { apiClient, startSandboxProcess, tempDir, type RunningSandbox } from '../helpers/sandbox.js';
import { FIXTURES, dbValue, defineFields, readCsv, writeLeadsCsv } from '../helpers/sync.js';

/** Import → export → import, on an empty sandbox and on the seeded one. */
const tmp = tempDir('crm-sync-roundtrip-');
let empty: RunningSandbox;
let seeded: RunningSandbox;

beforeAll(async () => {
  [empty, seeded] = await Promise.all([startSandboxProcess(['--no-seed', '--rate-limit', '0']), startSandboxProcess(['--rate-limit', '0'])]);
  // The fixtures' custom.<key> columns fill these fields; the export names a field's column by its key.
  await defineFields(apiClient(empty), 'lead', { score: 'number', newsletter: 'boolean' });
  await defineFields(apiClient(empty), 'client', { tier: 'text' });
});
afterAll(async () => {
  await Promise.all([empty?.stop(), seeded?.stop()]);
  tmp.remove();
});

const env = (s: RunningSandbox) => ({ CRM_BASE_URL: s.baseUrl, CRM_API_KEY: s.apiKey });
let n = 0;
const sync = (s: RunningSandbox, ...args: string[]) => runCrm(['sync', ...args], env(s));
const importJson = async (s: RunningSandbox, resource: string, file: string, ...args: string[]) => {
  const run = await sync(s, 'import', resource, file, '--results', join(tmp.path, `results-${++n}`), '--json', ...args);
  expect(run.code, run.stderr + run.stdout).toBe(0);
  return JSON.parse(run.stdout) as { summary: Record<string, number>; rows: number };
};
const exportTo = async (s: RunningSandbox, resource: string, ...args: string[]) => {
  const out = join(tmp.path, `export-${++n}.csv`);
  const run = await sync(s, 'export', resource, '--out', out, ...args);
  expect(run.code, run.stderr).toBe(0);
  return out;
};

/** The source CSV's cells under the export's column names (the fixtures' headers are written for people). */
function normalised(row: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [header, value] of Object.entries(row)) {
    const name = /^custom\./i.test(header)
      ? header.slice('custom.'.length)
      : header
          .toLowerCase()
          .replace(/^(address|contact) /, '$1.')
          .replace(/[\s-]+/g, '_');
    out[name] = value;
  }
  return out;
}

describe('import, then export', () => {
  it('round-trips every field of the leads and clients fixtures, cell for cell', async () => {
    await importJson(empty, 'leads', join(FIXTURES, 'leads-good.csv'));
    await importJson(empty, 'clients', join(FIXTURES, 'clients-contacts.csv'));
    for (const [resource, fixture] of [
      ['leads', 'leads-good.csv'],
      ['clients', 'clients-contacts.csv'],
    ] as const) {
      const exported = new Map(readCsv(await exportTo(empty, resource)).map((r) => [r.external_id, r]));
      const source = readCsv(join(FIXTURES, fixture)).map(normalised);
      expect(exported.size).toBe(source.length);
      for (const row of source) {
        const back = exported.get(row.external_id!)!;
        // The cell as crm writes every cell: a phone's leading + gets a ' so spreadsheets keep it text (formula-cells.ts).
        for (const [column, value] of Object.entries(row)) expect(back[column], `${row.external_id} ${column}`).toBe(escapeFormula(value));
        expect(back.id).toMatch(resource === 'leads' ? /^lead_/ : /^cli_/);
      }
    }
  });

  it('exports every page exactly once (2,500 leads over three pages of 1000)', async () => {
    const file = join(tmp.path, 'many.csv');
    await writeLeadsCsv(file, 2500, { externalIds: true, prefix: 'page', score: true });
    expect((await importJson(empty, 'leads', file)).summary.created).toBe(2500);
    const rows = readCsv(await exportTo(empty, 'leads')).filter((r) => r.external_id!.startsWith('page-'));
    expect(rows).toHaveLength(2500);
    expect(new Set(rows.map((r) => r.id)).size).toBe(2500);
    expect(rows.find((r) => r.external_id === 'page-2500')).toMatchObject({ email: 'page2500@example.com', tags: 'a|b', score: '0' });
  });
});

describe('export, then import', () => {
  it('gives all unchanged on the seeded sandbox (records without external_id are matched by id), with no event', async () => {
    const events = dbValue(seeded.db, 'SELECT count(*) FROM events');
    for (const resource of ['leads', 'clients']) {
      const out = await exportTo(seeded, resource);
      const rows = readCsv(out).length;
      expect(rows).toBeGreaterThan(30);
      const result = await importJson(seeded, resource, out);
      expect(result.summary).toEqual({ created: 0, updated: 0, unchanged: rows, failed: 0 });
    }
    expect(dbValue(seeded.db, 'SELECT count(*) FROM events')).toBe(events);
  });

  it('imports a change made in the file as updated, and only that', async () => {
    const out = await exportTo(seeded, 'leads', '--fields', 'id,first_name,notes');
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    const [id] = lines[1]!.split(',');
    const edited = join(tmp.path, 'edited.csv');
    writeFileSync(edited, [lines[0], `${id},Edited,"a note, edited"`, ...lines.slice(2)].join('\n') + '\n');
    const result = await importJson(seeded, 'leads', edited);
    expect(result.summary).toEqual({ created: 0, updated: 1, unchanged: lines.length - 2, failed: 0 });
    expect((await apiClient(seeded).get(`/v1/leads/${id}`)).body).toMatchObject({ first_name: 'Edited', notes: 'a note, edited' });
  });
});

describe('crm sync export', () => {
  it('--since exports only what changed after that time, oldest change first', async () => {
    const api = apiClient(empty);
    const since = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const [a, b] = (await api.get('/v1/leads?limit=2')).body.data;
    await api.patch(`/v1/leads/${b.id}`, { title: 'Changed second' });
    await api.patch(`/v1/leads/${a.id}`, { title: 'Changed last' });
    const rows = readCsv(await exportTo(empty, 'leads', '--since', since, '--fields', 'id,title'));
    expect(rows).toEqual([
      { id: b.id, title: 'Changed second' },
      { id: a.id, title: 'Changed last' },
    ]);
  });

  it('writes nothing but the CSV to stdout with --out -', async () => {
    const run = await sync(empty, 'export', 'clients', '--fields', 'external_id,name,contact.email', '--json');
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('external_id,name,contact.email');
    expect(lines).toContain('cli-1,Acme GmbH,jana@acme.example');
    expect(JSON.parse(run.stderr.trim().split('\n').pop()!)).toMatchObject({ rows: lines.length - 1, out: '-' });
  });

  it('--resume continues from the saved cursor after a failure, each record once', async () => {
    const api = apiClient(empty);
    const total = dbValue(empty.db, 'SELECT count(*) FROM leads');
    expect(total).toBeGreaterThan(2000);
    const out = join(tmp.path, 'resumed.csv');
    // Every request for a second page fails: the export stops after page one, with its state saved.
    const fault = await api.post('/_sandbox/faults', { method: 'GET', path_prefix: '/v1/leads?limit=1000&cursor=', status: 503, count: 1 });
    expect(fault.status).toBe(201);
    const failed = await sync(empty, 'export', 'leads', '--out', out, '--retries', '0');
    expect(failed.code).toBe(1);
    const state = JSON.parse(readFileSync(`${out}.state.json`, 'utf8'));
    expect(state).toMatchObject({ rows: 1000, done: false });
    expect(state.cursor).toEqual(expect.any(String));

    const resumed = await sync(empty, 'export', 'leads', '--out', out, '--resume');
    expect(resumed.code, resumed.stderr).toBe(0);
    const rows = readCsv(out);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.id)).size).toBe(total);
    expect(JSON.parse(readFileSync(`${out}.state.json`, 'utf8'))).toMatchObject({ rows: total, done: true, cursor: null });
    const again = await sync(empty, 'export', 'leads', '--out', out, '--resume');
    expect(again.stdout).toMatch(/already complete/);
    expect(existsSync(out)).toBe(true);
  });
});
