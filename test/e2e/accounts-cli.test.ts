import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCrm } from '../helpers/cli-process.js';
import { apiClient, useSandbox, type ApiClient, type RunningSandbox } from '../helpers/sandbox.js';

/** `crm accounts`, `crm sandbox clock` and `crm sandbox snapshot`, run as a user would, in the sandbox's folder. */
let sandbox: RunningSandbox;
let admin: ApiClient;
useSandbox([], (s, a) => ((sandbox = s), (admin = a)));

const crm = (args: string[], env: NodeJS.ProcessEnv = {}) => runCrm(args, env, { cwd: dirname(sandbox.db) });
const json = (out: { stdout: string }) => JSON.parse(out.stdout);

describe('crm accounts, clock and snapshot', () => {
  it('creates a trial account, watches its trial end with the clock, snapshots and restores it, deletes it', async () => {
    const created = await crm(['accounts', 'create', '--name', 'ci worker', '--plan', 'trial', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const account = json(created);
    expect(account).toMatchObject({ name: 'ci worker', plan: 'trial', api_key: expect.stringMatching(/^crm_test_/) });
    const api = apiClient({ baseUrl: sandbox.baseUrl, apiKey: account.api_key });

    const listed = json(await crm(['accounts', 'list', '--json']));
    expect(listed.data.map((a: { id: string }) => a.id)).toContain(account.id);

    const saved = await crm(['sandbox', 'snapshot', 'save', 'start', '--account', account.id]);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toContain('crm sandbox snapshot restore start');

    const moved = await crm(['sandbox', 'clock', 'advance', '7d', '--account', account.id, '--json']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(json(moved).offset_seconds).toBeGreaterThanOrEqual(7 * 86_400 - 5);
    expect((await api.get('/v1/account')).body.plan).toBe('free');
    expect((await api.get('/v1/events?type=account.trial_ended')).body.data).toHaveLength(1);

    const restored = await crm(['sandbox', 'snapshot', 'restore', 'start', '--account', account.id]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/Restored snapshot start in [\d.]+ ms/);
    expect((await api.get('/v1/events?type=account.trial_ended')).body.data).toHaveLength(0);
    expect(json(await crm(['sandbox', 'clock', '--account', account.id, '--json'])).offset_seconds).toBe(0);

    const snapshots = json(await crm(['sandbox', 'snapshot', 'list', '--account', account.id, '--json']));
    expect(snapshots.data.map((s: { name: string }) => s.name)).toEqual(['start']);
    expect((await crm(['accounts', 'delete', account.id])).code).toBe(0);
    expect((await api.get('/v1/account')).status).toBe(401);
  });

  it('crm sync import into a free account sends batches of 100, its plan’s most, instead of failing', async () => {
    const free = json(await crm(['accounts', 'create', '--name', 'free importer', '--seed', 'none', '--json']));
    const file = join(dirname(sandbox.db), 'free-leads.csv');
    writeFileSync(file, ['first_name,last_name,email', ...Array.from({ length: 250 }, (_, i) => `Free,Row ${i},row${i}@free.example`)].join('\n') + '\n');
    const env = { CRM_API_KEY: free.api_key, CRM_BASE_URL: sandbox.baseUrl };
    const imported = await crm(['sync', 'import', 'leads', file], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('at most 100 records per bulk call');
    const api = apiClient({ baseUrl: sandbox.baseUrl, apiKey: free.api_key });
    expect((await api.get('/v1/leads?limit=1000')).body.data).toHaveLength(250);
    const bulkCalls = (await api.get('/v1/request_logs?path_prefix=/v1/leads/bulk&limit=1000')).body.data;
    expect(bulkCalls.map((l: { status: number }) => l.status)).toEqual([200, 200, 200]);
  });

  it('without --account the clock is the key’s own account; mistakes say what to do', async () => {
    const clock = json(await crm(['sandbox', 'clock', 'show', '--json']));
    expect(clock.account_id).toBe((await admin.get('/v1/account')).body.id);

    const noName = await crm(['sandbox', 'snapshot', 'restore']);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('needs a NAME');
    const backwards = await crm(['sandbox', 'clock', 'set', '2000-01-01T00:00:00Z']);
    expect(backwards.code).toBe(1);
    expect(backwards.stderr).toContain('forward only');
    expect(backwards.stderr.match(/forward only/g)).toHaveLength(1); // the detail, not again as a field line
    // A day is its first second in UTC (the API itself takes RFC 3339 with seconds only).
    const dayAhead = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const toDay = json(await crm(['sandbox', 'clock', 'set', dayAhead, '--json']));
    expect(toDay.now).toBe(`${dayAhead}T00:00:00.000Z`);
    const notATime = await crm(['sandbox', 'clock', 'set', 'tomorrow']);
    expect(notATime.code).toBe(2);
    expect(notATime.stderr).toContain('Expected a day such as 2026-12-31');
    const unknown = await crm(['sandbox', 'snapshot', 'restore', 'never-saved']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no snapshot named 'never-saved'");

    const other = json(await crm(['accounts', 'create', '--name', 'not admin', '--json']));
    const refused = await crm(['accounts', 'list'], { CRM_API_KEY: other.api_key, CRM_BASE_URL: sandbox.baseUrl });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('sandbox admin key');
  });
});
