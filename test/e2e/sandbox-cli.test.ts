import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CRM_BIN, apiClient, startSandboxProcess, tempDir, type RunningSandbox } from '../helpers/sandbox.js';

const EXAMPLE_FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'example');

/** Sandboxes started by a test, stopped after it whatever happened. */
const running: RunningSandbox[] = [];
async function start(args: string[] = [], options: Parameters<typeof startSandboxProcess>[1] = {}) {
  const sandbox = await startSandboxProcess(args, options);
  running.push(sandbox);
  return sandbox;
}
const spawned: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
  for (const child of spawned.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Runs `crm …` to its end, as a user in a shell would. */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [CRM_BIN, ...args], { env: { ...process.env, NO_COLOR: '1', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Starts `crm sandbox start` without the helper, keeping everything it prints, until `ready` matches stdout. */
async function spawnStart(args: string[], ready: RegExp) {
  const child = spawn(process.execPath, [CRM_BIN, 'sandbox', 'start', '--port', '0', ...args], { env: { ...process.env, NO_COLOR: '1' } });
  spawned.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c) => (out.stdout += c));
  child.stderr.on('data', (c) => (out.stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => ready.test(out.stdout) && resolve());
    exited.then((code) => reject(new Error(`exited ${code}: ${out.stderr}`)));
  });
  return { child, out, exited };
}

const wellFormedKey = () =>
  `crm_test_${randomBytes(24)
    .toString('base64')
    .replace(/[^0-9A-Za-z]/g, '')
    .padEnd(32, 'x')
    .slice(0, 32)}`;
const dbFile = () => join(tempDir().path, 'sandbox.db');
const all = async (sandbox: RunningSandbox, resource: string) => (await apiClient(sandbox).get(`/v1/${resource}?limit=1000`)).body;

describe('crm sandbox start', () => {
  it('prints exactly one JSON line {base_url, listening_on, api_key, dashboard_url, db, pid} with --json, and nothing else', async () => {
    const db = dbFile();
    const { child, out, exited } = await spawnStart(['--json', '--no-seed', '--db', db], /\n/);
    const ready = JSON.parse(out.stdout);
    expect(Object.keys(ready).sort()).toEqual(['api_key', 'base_url', 'dashboard_url', 'db', 'listening_on', 'pid']);
    expect(ready.listening_on).toBe(ready.base_url.replace('http://', ''));
    expect(ready.dashboard_url).toMatch(new RegExp(`^${ready.base_url}/dashboard/#login=[A-Za-z0-9_-]{43}$`));
    expect(ready).toMatchObject({ db, pid: child.pid });
    expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.api_key).toMatch(/^crm_test_[0-9A-Za-z]{32}$/);
    expect((await apiClient({ baseUrl: ready.base_url, apiKey: ready.api_key }).get('/v1/deals')).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out.stdout).toBe(`${JSON.stringify(ready)}\n`);
  });

  it('prints the base URL and the admin key in human mode, and the key works', async () => {
    const { child, exited, out } = await spawnStart(['--no-seed', '--db', dbFile()], /Ctrl\+C/);
    const baseUrl = /Base URL\s+(http:\/\/\S+)/.exec(out.stdout)?.[1];
    const apiKey = /API key\s+(crm_test_\S+)/.exec(out.stdout)?.[1];
    expect(baseUrl).toBeDefined();
    expect(apiKey).toBeDefined();
    expect((await apiClient({ baseUrl: baseUrl!, apiKey: apiKey! }).get('/v1/clients')).status).toBe(200);
    expect(out.stdout).toMatch(new RegExp(`^  Dashboard  ${baseUrl}/dashboard/#login=[A-Za-z0-9_-]{43}$`, 'm'));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('stops on %s with exit 0, the database intact and kept on restart', async (signal) => {
    const first = await start(['--no-seed']);
    const created = (await apiClient(first).post('/v1/clients', { name: 'Survives Restart' })).body;
    expect(await first.stop(signal)).toBe(0);
    expect(existsSync(`${first.db}-wal`)).toBe(false); // closed cleanly: the WAL was checkpointed away
    const db = new Database(first.db, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.prepare('SELECT name FROM clients WHERE id = ?').pluck().get(created.id)).toBe('Survives Restart');
    db.close();

    const second = await start(['--no-seed'], { db: first.db });
    expect(second.apiKey).toBeNull(); // the admin key was made on the first start
    const res = await apiClient({ baseUrl: second.baseUrl, apiKey: first.apiKey }).get(`/v1/clients/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it.each([
    ['--api-key', (key: string) => ({ args: ['--api-key', key], env: {} })],
    ['CRM_SANDBOX_API_KEY', (key: string) => ({ args: [], env: { CRM_SANDBOX_API_KEY: key } })],
  ])('registers the admin key given by %s', async (_how, given) => {
    const key = wellFormedKey();
    const { args, env } = given(key);
    const sandbox = await start(['--no-seed', ...args], { env });
    expect(sandbox.apiKey).toBe(key);
    expect((await apiClient({ baseUrl: sandbox.baseUrl, apiKey: key }).get('/v1/deals')).status).toBe(200);
    expect((await apiClient({ baseUrl: sandbox.baseUrl, apiKey: wellFormedKey() }).get('/v1/deals')).status).toBe(401);
  });

  it('runs on --db :memory:', async () => {
    const sandbox = await start([], { db: ':memory:' });
    expect((await all(sandbox, 'clients')).data.length).toBeGreaterThan(0);
  });

  it('starts empty with --no-seed', async () => {
    const sandbox = await start(['--no-seed']);
    for (const resource of ['leads', 'clients', 'deals', 'invoices']) {
      expect(await all(sandbox, resource)).toEqual({ data: [], next_cursor: null });
    }
  });

  it('answers /healthz with 200 {status: "ok"} without a key', async () => {
    const sandbox = await start(['--no-seed']);
    const res = await apiClient(sandbox).get('/healthz', { key: null });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });
});

describe('seed data', () => {
  it('makes identical records and ids for the same --seed, and other data for another seed', async () => {
    const [a, b, c] = await Promise.all([start(['--seed', '7']), start(['--seed', '7']), start(['--seed', '8'])]);
    for (const resource of ['clients', 'deals', 'leads']) {
      const [one, two] = [await all(a, resource), await all(b, resource)];
      expect(one.data.length).toBeGreaterThan(0);
      expect(two).toEqual(one);
    }
    expect(await all(c, 'deals')).not.toEqual(await all(a, 'deals'));
    expect(await all(c, 'clients')).not.toEqual(await all(a, 'clients'));
  });

  it('gives clients 1-3 contacts, deals in every stage and invoices in every status', async () => {
    const sandbox = await start();
    const clients = (await all(sandbox, 'clients')).data as { contacts: unknown[] }[];
    expect(clients.length).toBeGreaterThan(0);
    expect(clients.map((c) => c.contacts.length).filter((n) => n < 1 || n > 3)).toEqual([]);
    const stages = new Set((await all(sandbox, 'deals')).data.map((d: { stage: string }) => d.stage));
    expect([...stages].sort()).toEqual(['lead_in', 'lost', 'negotiation', 'proposal', 'qualified', 'won']);
    const statuses = new Set((await all(sandbox, 'invoices')).data.map((i: { status: string }) => i.status));
    expect([...statuses].sort()).toEqual(['draft', 'open', 'paid', 'void']);
  });
});

describe('fixtures', () => {
  const file = (name: string) => JSON.parse(readFileSync(join(EXAMPLE_FIXTURES, name), 'utf8')) as Record<string, any>[];

  it('loads fixtures/example: clients, leads, deals and invoices, with client_external_id resolved', async () => {
    const sandbox = await start(['--no-seed', '--fixtures', EXAMPLE_FIXTURES]);
    const clients = (await all(sandbox, 'clients')).data;
    expect(clients.map((c: { name: string }) => c.name)).toEqual(file('clients.json').map((c) => c.name));
    expect(clients.map((c: { contacts: unknown[] }) => c.contacts.length)).toEqual(file('clients.json').map((c) => c.contacts.length));
    const idOf = (externalId: string) => clients.find((c: { external_id: string }) => c.external_id === externalId).id;
    expect((await all(sandbox, 'leads')).data).toHaveLength(file('leads.json').length);
    const deals = (await all(sandbox, 'deals')).data;
    expect(deals.map((d: { title: string; client_id: string; value: number }) => [d.title, d.client_id, d.value])).toEqual(
      file('deals.json').map((d) => [d.title, idOf(d.client_external_id), d.value]),
    );
    const invoices = (await all(sandbox, 'invoices')).data;
    expect(invoices.map((i: { client_id: string }) => i.client_id)).toEqual(file('invoices.json').map((i) => idOf(i.client_external_id)));
    expect(invoices.map((i: { status: string }) => i.status)).toEqual(file('invoices.json').map((i) => (i.send === false ? 'draft' : 'open')));
  });

  it.each([
    ['deals.json', '[{"title": "No value", "currency": "EUR", "stage": "lead_in"}]', /deals\.json\[0\]: value/],
    ['clients.json', '{not json', /clients\.json: not valid JSON/],
    ['clients.json', '{"name": "not an array"}', /clients\.json: expected a JSON array/],
    ['invoices.json', '[{"client_external_id": "nobody", "line_items": []}]', /invoices\.json\[0\]: no client with external_id 'nobody'/],
  ])('exits 1 with a clear message for a bad %s, loading nothing', async (name, content, message) => {
    const dir = tempDir();
    writeFileSync(join(dir.path, name), content);
    const db = join(dir.path, 'sandbox.db');
    const res = await runCli(['sandbox', 'start', '--port', '0', '--db', db, '--fixtures', dir.path]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/Could not load fixtures/);
    expect(res.stderr).toMatch(message);
    expect(res.stdout).toBe('');
    // A start that fails leaves no database behind: the new file it made is removed.
    expect(existsSync(db)).toBe(false);
    expect(readdirSync(dir.path)).toEqual([name]);
  });

  it('a failed start never removes a database that was there before', async () => {
    const dir = tempDir();
    const db = join(dir.path, 'sandbox.db');
    const existing = new Database(db);
    existing.exec('CREATE TABLE mine (x)');
    existing.close();
    writeFileSync(join(dir.path, 'deals.json'), '[{"title": "No value", "currency": "EUR", "stage": "lead_in"}]');
    const res = await runCli(['sandbox', 'start', '--port', '0', '--db', db, '--fixtures', dir.path]);
    expect(res.code).toBe(1);
    const check = new Database(db, { readonly: true });
    expect(check.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'mine'").pluck().get()).toBe(1);
    check.close();
  });
});

describe('crm sandbox reset', () => {
  it('deletes all data and seeds again, while the API key keeps working', async () => {
    const sandbox = await start(['--seed', '3']);
    const api = apiClient(sandbox);
    const [clients, deals] = [await all(sandbox, 'clients'), await all(sandbox, 'deals')];
    const extra = (await api.post('/v1/clients', { name: 'Gone after reset' })).body;
    // Search rows are keyed by the client's rowid: the seeded clients come back with the same ones.
    const search = async (q: string) => (await api.get(`/v1/clients?limit=1000&q=${encodeURIComponent(q)}`)).body.data.map((c: { id: string }) => c.id);
    const seeded = clients.data[0];
    expect(await search(seeded.name)).toContain(seeded.id);
    const res = await runCli(['sandbox', 'reset', '--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/reset/);
    expect((await api.get(`/v1/clients/${extra.id}`)).status).toBe(404);
    expect(await all(sandbox, 'clients')).toEqual(clients);
    expect(await all(sandbox, 'deals')).toEqual(deals);
    expect(await search('Gone after reset')).toEqual([]);
    expect(await search(seeded.name)).toContain(seeded.id);
    expect(await search(seeded.contacts[0].last_name)).toContain(seeded.id);
  });

  it('leaves an unseeded sandbox empty', async () => {
    const sandbox = await start(['--no-seed']);
    await apiClient(sandbox).post('/v1/clients', { name: 'Gone after reset' });
    const res = await runCli(['sandbox', 'reset', '--json', '--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ status: 'reset', seeded: false });
    expect(await all(sandbox, 'clients')).toEqual({ data: [], next_cursor: null });
  });
});

describe('usage and errors', () => {
  it('exits 1 suggesting --port 0 when the port is in use', async () => {
    const sandbox = await start(['--no-seed']);
    const port = new URL(sandbox.baseUrl).port;
    const res = await runCli(['sandbox', 'start', '--port', port, '--no-seed', '--db', dbFile()]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`Port ${port} is in use`);
    expect(res.stderr).toContain('--port 0');
  });

  it('exits 1 naming the database when --db cannot be a file (a folder, or under a file)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir.path, 'plain'), '');
    for (const db of [dir.path, join(dir.path, 'plain', 'sandbox.db')]) {
      const res = await runCli(['sandbox', 'start', '--port', '0', '--no-seed', '--db', db]);
      expect(res.code, db).toBe(1);
      expect(res.stderr, db).toContain(`Cannot open the database ${db}`);
    }
    dir.remove();
  });

  it.each(['abc', '65536', '1.5'])('exits 2 for --port %s', async (port) => {
    const res = await runCli(['sandbox', 'start', '--port', port, '--no-seed', '--db', dbFile()]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--port/);
  });

  it.each([
    [['--help'], ['sandbox', 'openapi']],
    [
      ['sandbox', 'start', '--help'],
      ['--port', '--db', '--no-seed', '--fixtures', '--api-key'],
    ],
  ])('crm %j exits 0 and shows the usage', async (args, mentions) => {
    const res = await runCli(args);
    expect(res.code).toBe(0);
    for (const text of mentions) expect(res.stdout).toContain(text);
  });

  it('prints with `crm openapi` the OpenAPI 3.1 document that GET /v1/openapi.json serves', async () => {
    const res = await runCli(['openapi']);
    expect(res.code, res.stderr).toBe(0);
    const printed = JSON.parse(res.stdout);
    expect(printed.openapi).toBe('3.1.0');
    const sandbox = await start(['--no-seed']);
    const served = (await (await fetch(`${sandbox.baseUrl}/v1/openapi.json`)).json()) as Record<string, unknown>;
    expect(served.servers).toEqual([{ url: sandbox.baseUrl, description: 'This sandbox', 'x-internal': false }]);
    expect(Object.keys(printed.paths).length).toBeGreaterThan(10);
    expect({ ...printed, servers: null }).toEqual({ ...served, servers: null });
  });
});
