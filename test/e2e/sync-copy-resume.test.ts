import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSample } from '../../src/sync/copy/subset.js';
import { runCrm, spawnCrm } from '../helpers/cli-process.js';
import { buildSource, countsIn } from '../helpers/copy-source.js';
import { apiClient, startSandboxProcess, tempDir, type RunningSandbox } from '../helpers/sandbox.js';
import { dbRows, dbValue } from '../helpers/sync.js';

/**
 * `crm sync copy` killed (SIGKILL) in the middle and continued with --resume, subsets closed over
 * their references (--sample, --limit, --where), and the refusals of bad input (exit 2, nothing
 * written).
 */
const tmp = tempDir('crm-copy-resume-');
const key = join(tmp.path, 'key');
let source: RunningSandbox;
let slow: RunningSandbox;
let subset: RunningSandbox;

beforeAll(async () => {
  // The slow target takes 40 requests a second: the copy's invoices (one request each, and one per transition) take seconds.
  [source, slow, subset] = (await Promise.all([
    startSandboxProcess(['--no-seed']),
    startSandboxProcess(['--no-seed', '--rate-limit', '40/1s']),
    startSandboxProcess(['--no-seed']),
  ])) as [RunningSandbox, RunningSandbox, RunningSandbox];
  await buildSource(apiClient(source), { clients: 60, leads: 200, deals: 120, invoices: 100 });
}, 120_000);
afterAll(async () => {
  await Promise.all([source, slow, subset].map((s) => s?.stop()));
  tmp.remove();
});

const env = (to: RunningSandbox) => ({ CRM_FROM_API_KEY: source.apiKey, CRM_TO_API_KEY: to.apiKey });
const args = (to: RunningSandbox, results: string, ...extra: string[]) => [
  ...['sync', 'copy', '--from', source.baseUrl, '--to', to.baseUrl, '--mask-key-file', key, '--results', results, '--json'],
  ...(extra.includes('--mask') ? [] : ['--mask', 'default']),
  ...extra,
];
const report = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!);

describe('a copy killed and resumed', () => {
  it('SIGKILL among the leads, Ctrl+C and SIGKILL among the invoices, then --resume: each record exactly once, the counts exact, the pause lifted', async () => {
    const results = join(tmp.path, 'killed');
    const journal = join(results, 'journal.jsonl');
    const lines = (match: string) =>
      existsSync(journal)
        ? readFileSync(journal, 'utf8')
            .split('\n')
            .filter((l) => l.includes(match)).length
        : 0;
    // Small batches: the leads take some 40 requests, a second at the slow target's pace.
    const killWhen = async (extra: string[], ready: () => boolean) => {
      const run = spawnCrm(args(slow, results, '--batch-size', '5', ...extra), env(slow));
      for (const deadline = Date.now() + 60_000; !ready() && run.child.exitCode === null && Date.now() < deadline; )
        await new Promise((r) => setTimeout(r, 10));
      expect(run.child.exitCode).toBeNull(); // still copying: killed in the middle
      await run.stop('SIGKILL');
    };
    await killWhen([], () => lines('"resource":"clients"') > 0);
    expect(countsIn(slow.db).leads).toBeLessThan(200);
    expect(countsIn(slow.db).invoices).toBe(0);
    // Ctrl+C among the invoices: those in flight finish, the run says it stopped (exit 1), the journal has them.
    const interrupted = spawnCrm(args(slow, results, '--batch-size', '5', '--resume'), env(slow));
    for (const deadline = Date.now() + 60_000; lines('"invoice":') < 10 && interrupted.child.exitCode === null && Date.now() < deadline; )
      await new Promise((r) => setTimeout(r, 10));
    expect(await interrupted.stop('SIGINT')).toBe(1);
    expect(JSON.parse(interrupted.lines.at(-1)!)).toMatchObject({ stopped: 'interrupted (Ctrl+C)' });
    await killWhen(['--resume'], () => lines('"invoice":') >= 40);
    const before = countsIn(slow.db);
    expect(before.invoices).toBeGreaterThan(0);
    expect(before.invoices).toBeLessThan(100);

    const resumed = await runCrm(args(slow, results, '--batch-size', '5', '--resume'), env(slow));
    expect(resumed.code, resumed.stderr).toBe(0);
    const counts = countsIn(source.db);
    expect(countsIn(slow.db)).toEqual(counts);
    expect(report(resumed.stdout).resources).toMatchObject({
      clients: { created: counts.clients, updated: 0, unchanged: 0, failed: 0 },
      leads: { created: counts.leads, updated: 0, unchanged: 0, failed: 0 },
      deals: { created: counts.deals, updated: 0, unchanged: 0, failed: 0 },
      invoices: { created: counts.invoices, updated: 0, unchanged: 0, failed: 0 },
    });
    // succeeded.csv lists each invoice once, as created.
    const succeeded = readFileSync(join(results, 'invoices', 'succeeded.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1);
    expect(succeeded.length).toBe(counts.invoices);
    expect(new Set(succeeded.map((l) => l.split(',')[0])).size).toBe(counts.invoices);
    const states = (db: string, key: string) => dbRows<{ k: string; status: string }>(db, `SELECT ${key} AS k, status FROM invoices ORDER BY 1`);
    expect(states(slow.db, 'external_id')).toEqual(states(source.db, 'id'));
    expect(dbValue(slow.db, 'SELECT COUNT(*) FROM invoices WHERE status IN (?, ?) AND sent_at IS NULL', 'open', 'paid')).toBe(0);
    expect((await apiClient(slow).get('/_sandbox/webhook_pause')).body).toEqual({ paused_until: null });
  }, 120_000);
});

describe('subsets closed over their references', () => {
  it('--sample 10%: the same share every time, and every record a sampled one points at', async () => {
    const { code, stdout, stderr } = await runCrm(args(subset, join(tmp.path, 'sample'), '--sample', '10%'), env(subset));
    expect(code, stderr).toBe(0);
    const sampled = (table: string) =>
      new Set(
        dbRows<{ id: string }>(source.db, `SELECT id FROM ${table}`)
          .map((r) => r.id)
          .filter((id) => inSample(id, 0.1)),
      );
    const copied = (table: string) => new Set(dbRows<{ external_id: string }>(subset.db, `SELECT external_id FROM ${table}`).map((r) => r.external_id));
    expect(copied('leads')).toEqual(sampled('leads'));
    for (const table of ['clients', 'deals', 'invoices']) for (const id of sampled(table)) expect(copied(table).has(id)).toBe(true);
    expect(sampled('leads').size).toBeGreaterThan(5);
    expect(sampled('leads').size).toBeLessThan(60);
    // Closed: no reference of the target dangles, and each points where the source's did.
    const external = (table: string, id: string | null) => (id ? dbValue<string>(subset.db, `SELECT external_id FROM ${table} WHERE id = ?`, id) : null);
    for (const d of dbRows<{ external_id: string; client_id: string | null }>(subset.db, 'SELECT external_id, client_id FROM deals')) {
      expect(external('clients', d.client_id)).toBe(dbValue(source.db, 'SELECT client_id FROM deals WHERE id = ?', d.external_id));
    }
    for (const i of dbRows<{ external_id: string; client_id: string; deal_id: string | null }>(
      subset.db,
      'SELECT external_id, client_id, deal_id FROM invoices',
    )) {
      expect([external('clients', i.client_id), external('deals', i.deal_id)]).toEqual(
        dbRows(source.db, 'SELECT client_id, deal_id FROM invoices WHERE id = ?', i.external_id).map((r) => Object.values(r))[0],
      );
    }
    for (const l of dbRows<{ external_id: string; converted_client_id: string | null }>(subset.db, 'SELECT external_id, converted_client_id FROM leads')) {
      expect(external('clients', l.converted_client_id)).toBe(dbValue(source.db, 'SELECT converted_client_id FROM leads WHERE id = ?', l.external_id));
    }
    expect(report(stdout).summary.failed).toBe(0);
  });

  it('--sample with --since last: only what changed, and what it points at that the target lacks', async () => {
    const results = join(tmp.path, 'sample'); // the folder of the --sample copy above: its state.json
    const inTarget = new Set(dbRows<{ external_id: string }>(subset.db, 'SELECT external_id FROM clients').map((r) => r.external_id));
    const outside = dbRows<{ id: string }>(source.db, 'SELECT id FROM clients ORDER BY id')
      .map((r) => r.id)
      .find((id) => !inTarget.has(id))!;
    let deal: string | undefined;
    for (let i = 0; i < 200 && !deal; i++) {
      const made = await apiClient(source).post('/v1/deals', { title: `Sampled ${i}`, value: 10, currency: 'EUR', stage: 'qualified', client_id: outside });
      expect(made.status).toBe(201);
      if (inSample(made.body.id, 0.1)) deal = made.body.id;
    }
    expect(deal).toBeDefined();
    const { code, stdout, stderr } = await runCrm(args(subset, results, '--sample', '10%', '--since', 'last'), env(subset));
    expect(code, stderr).toBe(0);
    const { resources, summary } = report(stdout);
    expect(resources.deals).toMatchObject({ created: 1, updated: 0, failed: 0 });
    expect(resources.clients).toMatchObject({ created: 1, updated: 0, failed: 0 }); // the old client, brought by the new deal
    expect(summary.created + summary.updated).toBe(2);
    expect(summary.unchanged).toBeLessThanOrEqual(1); // the watermark's own record, at most
    const client = dbValue<string>(subset.db, 'SELECT client_id FROM deals WHERE external_id = ?', deal);
    expect(dbValue(subset.db, 'SELECT external_id FROM clients WHERE id = ?', client)).toBe(outside);
  });

  it('--limit and --where choose per resource and bring what the chosen records point at', async () => {
    const results = join(tmp.path, 'limit');
    const { code, stdout } = await runCrm(args(subset, results, '--resources', 'deals', '--limit', '3', '--where', 'deals:stage=won', '--plan'), env(subset));
    expect(code).toBe(0);
    const planned = report(stdout).resources;
    expect(planned.deals.created + planned.deals.unchanged).toBe(3);
    expect(Object.keys(planned)).toEqual(['clients', 'deals']);
    expect(existsSync(results)).toBe(false); // a plan writes nothing, here either
  });
});

/** A server that speaks the API but is no sandbox: it forwards /v1 to `to` and has no /_sandbox routes (404). */
async function notASandbox(to: RunningSandbox): Promise<{ url: string; sandboxCalls: string[]; close(): Promise<void> }> {
  const sandboxCalls: string[] = [];
  const server = http.createServer(async (req, res) => {
    if (req.url!.startsWith('/_sandbox')) {
      sandboxCalls.push(`${req.method} ${req.url}`);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"not_found","detail":"No such route."}');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      ['authorization', 'content-type', 'idempotency-key'].flatMap((h) => (req.headers[h] ? [[h, String(req.headers[h])]] : [])),
    );
    const answer = await fetch(`${to.baseUrl}${req.url}`, { method: req.method!, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, sandboxCalls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('which end is a sandbox, and what follows from it', () => {
  it('from a server that is no sandbox into a sandbox: masked without being asked', async () => {
    const prod = await notASandbox(source);
    try {
      const results = join(tmp.path, 'from-prod');
      const run = await runCrm(
        [
          'sync',
          'copy',
          '--from',
          prod.url,
          '--to',
          subset.baseUrl,
          '--resources',
          'leads',
          '--where',
          'leads:status=qualified',
          '--mask-key-file',
          key,
          '--results',
          results,
          '--json',
        ],
        env(subset),
      );
      expect(run.code, run.stdout).toBe(0);
      expect(report(run.stdout).masked).toBe(true);
      const emails = new Set(dbRows<{ email: string }>(source.db, "SELECT email FROM leads WHERE status = 'qualified'").map((r) => r.email));
      const copied = dbRows<{ email: string }>(subset.db, "SELECT leads.email FROM leads WHERE status = 'qualified'").map((r) => r.email);
      expect(copied.length).toBe(emails.size);
      expect(copied.filter((e) => emails.has(e))).toEqual([]);
    } finally {
      await prod.close();
    }
  });

  it('into a server that is no sandbox: an invoice that must be sent is not (it would mail), and no pause is tried', async () => {
    const fresh = await startSandboxProcess(['--no-seed']);
    const prod = await notASandbox(fresh);
    try {
      const run = await runCrm(
        [
          'sync',
          'copy',
          '--from',
          source.baseUrl,
          '--to',
          prod.url,
          '--to-api-key',
          fresh.apiKey,
          '--resources',
          'invoices',
          '--sample',
          '30%',
          '--mask',
          'default',
          '--mask-key-file',
          key,
          '--results',
          join(tmp.path, 'to-prod'),
          '--json',
        ],
        { CRM_FROM_API_KEY: source.apiKey },
      );
      expect(run.code).toBe(1);
      const invoices = report(run.stdout).resources.invoices;
      const sampled = dbRows<{ id: string; status: string }>(source.db, 'SELECT id, status FROM invoices').filter((i) => inSample(i.id, 0.3));
      expect(invoices.failed).toBe(sampled.filter((i) => i.status === 'open' || i.status === 'paid').length);
      expect(readFileSync(join(tmp.path, 'to-prod', 'invoices', 'failed.csv'), 'utf8')).toContain('would_mail');
      expect(dbValue(fresh.db, 'SELECT COUNT(*) FROM mailbox')).toBe(0);
      expect(prod.sandboxCalls).toEqual(['GET /_sandbox/webhook_pause']); // asked whether it is a sandbox; nothing paused
      expect(dbValue(fresh.db, "SELECT COUNT(*) FROM invoices WHERE status IN ('draft', 'void')")).toBe(sampled.length - invoices.failed);
    } finally {
      await prod.close();
      await fresh.stop();
    }
  });

  it('--from a profile --to sandbox: the worked example of docs/sync.md', async () => {
    const config = join(tmp.path, 'config');
    const cwd = dirname(subset.db); // where `crm sandbox start` wrote .crm/sandbox.json
    const noEnv = { CRM_API_KEY: '', CRM_BASE_URL: '', CRM_PROFILE: '', XDG_CONFIG_HOME: config };
    expect((await runCrm(['login', '--base-url', source.baseUrl, '--api-key', source.apiKey, '--profile', 'prod'], noEnv)).code).toBe(0);
    const run = await runCrm(['sync', 'copy', '--from', 'prod', '--to', 'sandbox', '--plan', '--resources', 'clients'], noEnv, { cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Plan \d+ records/);
    expect(run.stdout).toMatch(/clients +create \d+ · update \d+ · unchanged \d+ · failed 0/);
    expect(run.stderr).toMatch(/not masking: the source is a sandbox too/);
  });
});

describe('bad input: exit 2, a message that says what to do, nothing written', () => {
  const usage: [string, string[], RegExp][] = [
    ['--limit with --sample', ['--limit', '5', '--sample', '10%'], /do not go together/],
    ['an unknown resource', ['--resources', 'leads,people'], /--resources: expected some of/],
    ['a --where that is not resource:field=value', ['--where', 'status=new'], /resource:field=value/],
    ['a sample that is no share', ['--sample', '150%'], /--sample 150%/],
    ['--resume with nothing to resume', ['--resume'], /Nothing to resume/],
    ['--since last before any copy', ['--since', 'last'], /no earlier complete copy/],
    ['a mask rules file with an unknown field', ['--mask', 'RULES'], /no field "shoe_size"/],
  ];
  it.each(usage)('%s', async (_name, extra, message) => {
    const rules = join(tmp.path, 'rules.json');
    writeFileSync(rules, JSON.stringify({ 'leads.shoe_size': 'keep' }));
    const results = join(tmp.path, `usage-${_name.replace(/\W+/g, '-')}`);
    const { code, stdout } = await runCrm(args(subset, results, ...extra.map((a) => (a === 'RULES' ? rules : a))), env(subset));
    expect(code).toBe(2);
    expect(JSON.parse(stdout).error.message).toMatch(message); // --json: the error as JSON on stdout
    expect(existsSync(join(results, 'journal.jsonl'))).toBe(false);
  });

  it('--to with no key anywhere says how to give one', async () => {
    const { code, stderr } = await runCrm(['sync', 'copy', '--from', source.baseUrl, '--to', 'http://127.0.0.1:9'], {
      CRM_FROM_API_KEY: source.apiKey,
      XDG_CONFIG_HOME: tmp.path,
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/--to-api-key/);
  });
});
