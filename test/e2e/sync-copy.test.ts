import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAMES } from '../../src/sync/mask/locales.js';
import { runCrm } from '../helpers/cli-process.js';
import { SOURCE_FIRST, SOURCE_LAST, buildSource, countsIn, everyText, type SourceValues } from '../helpers/copy-source.js';
import { apiClient, startSandboxProcess, tempDir, type ApiClient, type RunningSandbox } from '../helpers/sandbox.js';
import { dbRows, dbValue } from '../helpers/sync.js';

/**
 * `crm sync copy` between two real sandboxes on loopback, run as a user runs it (bin/crm): a source
 * of ~1,400 records (clients with contact persons, leads, converted leads, deals in every stage,
 * invoices in every state) into a target, masked. Then: nothing of the source's people in the
 * target, a rerun that writes nothing, --since, --prune, --plan, and the same fakes from the same key.
 */
const tmp = tempDir('crm-copy-');
const key1 = join(tmp.path, 'key1');
const key2 = join(tmp.path, 'key2');
let source: RunningSandbox;
let target: RunningSandbox;
let twin: RunningSandbox;
let src: ApiClient;
let values: SourceValues;

beforeAll(async () => {
  [source, target, twin] = (await Promise.all([0, 1, 2].map(() => startSandboxProcess(['--no-seed'])))) as [RunningSandbox, RunningSandbox, RunningSandbox];
  src = apiClient(source);
  values = await buildSource(src, { clients: 120, leads: 600, deals: 300, invoices: 60 });
  // An endpoint on the target: the copy must not send it one delivery per record.
  await apiClient(target).post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'] });
}, 120_000);
afterAll(async () => {
  await Promise.all([source, target, twin].map((s) => s?.stop()));
  tmp.remove();
});

async function copy(to: RunningSandbox, extra: string[] = [], key = key1, results = join(tmp.path, `to-${to.baseUrl.split(':').pop()}`)) {
  const run = await runCrm(['sync', 'copy', '--from', source.baseUrl, '--to', to.baseUrl, '--mask-key-file', key, '--results', results, '--json', ...extra], {
    CRM_FROM_API_KEY: source.apiKey,
    CRM_TO_API_KEY: to.apiKey,
  });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith('{')) throw new Error(`crm sync copy exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
  return { ...run, report: JSON.parse(line) };
}

const byExternal = <T extends Record<string, unknown>>(db: string, sql: string) =>
  new Map(dbRows<T & { external_id: string }>(db, sql).map((r) => [r.external_id, r]));
const total = (s: { created: number; updated: number; unchanged: number; failed: number }) => s.created + s.updated + s.unchanged + s.failed;

describe('crm sync copy', () => {
  it('--plan counts what a copy would create and writes nothing', async () => {
    const { code, report } = await copy(target, ['--plan', '--mask', 'default']);
    expect(code).toBe(0);
    const counts = countsIn(source.db);
    expect(report.plan).toBe(true);
    expect(report.resources.clients.created).toBe(counts.clients);
    expect(report.resources.leads.created).toBe(counts.leads);
    expect(report.resources.deals.created).toBe(counts.deals);
    expect(report.resources.invoices.created).toBe(counts.invoices);
    expect(countsIn(target.db)).toEqual({ clients: 0, contacts: 0, leads: 0, deals: 0, invoices: 0 });
    expect(dbValue(target.db, 'SELECT COUNT(*) FROM events')).toBe(0);
  });

  it('copies every record with its references and states, webhook deliveries paused', async () => {
    const { code, report } = await copy(target, ['--mask', 'default']);
    expect(code).toBe(0);
    const counts = countsIn(source.db);
    expect(countsIn(target.db)).toEqual(counts);
    expect(report.summary).toMatchObject({ created: counts.clients + counts.leads + counts.deals + counts.invoices, updated: 0, unchanged: 0, failed: 0 });

    const srcClients = byExternal<{ id: string }>(source.db, 'SELECT id, id AS external_id FROM clients');
    const tClients = new Map(dbRows<{ id: string; external_id: string }>(target.db, 'SELECT id, external_id FROM clients').map((c) => [c.id, c.external_id]));
    expect(new Set(tClients.values())).toEqual(new Set(srcClients.keys()));
    // Contact persons per client, deal stages and clients, lead statuses and conversions, invoice states, clients and deals.
    const contactsPer = (db: string, key: string) =>
      new Map(
        dbRows<{ k: string; n: number }>(db, `SELECT ${key} AS k, COUNT(*) AS n FROM contacts JOIN clients ON clients.id = contacts.client_id GROUP BY 1`).map(
          (r) => [r.k, r.n],
        ),
      );
    expect(contactsPer(target.db, 'clients.external_id')).toEqual(contactsPer(source.db, 'clients.id'));
    const sDeals = byExternal<{ stage: string; client_id: string | null }>(source.db, 'SELECT id AS external_id, stage, client_id FROM deals');
    for (const d of dbRows<{ external_id: string; stage: string; client_id: string | null }>(target.db, 'SELECT external_id, stage, client_id FROM deals')) {
      expect(d.stage).toBe(sDeals.get(d.external_id)!.stage);
      expect(d.client_id ? tClients.get(d.client_id) : null).toBe(sDeals.get(d.external_id)!.client_id);
    }
    const sLeads = byExternal<{ status: string; converted_client_id: string | null }>(
      source.db,
      'SELECT id AS external_id, status, converted_client_id FROM leads',
    );
    const tLeads = dbRows<{ external_id: string; status: string; converted_client_id: string | null }>(
      target.db,
      'SELECT external_id, status, converted_client_id FROM leads',
    );
    expect(tLeads.filter((l) => l.status === 'converted').length).toBe(counts.leads / 10);
    for (const l of tLeads) {
      expect(l.status).toBe(sLeads.get(l.external_id)!.status);
      expect(l.converted_client_id ? tClients.get(l.converted_client_id) : null).toBe(sLeads.get(l.external_id)!.converted_client_id);
    }
    const tDeals = new Map(dbRows<{ id: string; external_id: string }>(target.db, 'SELECT id, external_id FROM deals').map((d) => [d.id, d.external_id]));
    const sInvoices = byExternal<{ status: string; client_id: string; deal_id: string | null; total_minor: number }>(
      source.db,
      'SELECT id AS external_id, status, client_id, deal_id, total_minor FROM invoices',
    );
    const tInvoices = dbRows<{ external_id: string; status: string; client_id: string; deal_id: string | null; total_minor: number }>(
      target.db,
      'SELECT external_id, status, client_id, deal_id, total_minor FROM invoices',
    );
    expect(new Set(tInvoices.map((i) => i.status))).toEqual(new Set(['draft', 'open', 'paid', 'void']));
    for (const i of tInvoices) {
      const s = sInvoices.get(i.external_id)!;
      expect([i.status, tClients.get(i.client_id), i.deal_id ? tDeals.get(i.deal_id) : null, i.total_minor]).toEqual([
        s.status,
        s.client_id,
        s.deal_id,
        s.total_minor,
      ]);
    }
    // Events recorded, none delivered; the pause lifted after the copy.
    expect(dbValue(target.db, 'SELECT COUNT(*) FROM events')).toBeGreaterThan(counts.leads);
    expect(dbValue(target.db, 'SELECT COUNT(*) FROM webhook_deliveries')).toBe(0);
    expect((await apiClient(target).get('/_sandbox/webhook_pause')).body).toEqual({ paused_until: null });
    // Invoices "sent" in the sandbox reached its mailbox only, at reserved domains.
    const recipients = dbRows<{ recipient: string }>(target.db, 'SELECT recipient FROM mailbox').map((m) => m.recipient);
    expect(recipients.length).toBeGreaterThan(0);
    for (const to of recipients) expect(to).toMatch(/@example\.(com|org|net)$/);
  });

  it('no name, email or phone of the source is anywhere in the target: records, events, request logs, mailbox', () => {
    const texts = everyText(target.db);
    const words = new Set(texts.flatMap((t) => t.match(/\p{L}+/gu) ?? []));
    // The source's names are none of masking's own (or finding one would prove nothing), and none is in the target.
    const pools = new Set(Object.values(NAMES).flatMap((set) => [...set.female, ...set.male, ...set.last]));
    expect(SOURCE_FIRST.concat(SOURCE_LAST).filter((n) => pools.has(n))).toEqual([]);
    expect(SOURCE_FIRST.concat(SOURCE_LAST).filter((n) => words.has(n))).toEqual([]);
    const emails = new Set(texts.flatMap((t) => t.match(/[\w.+-]+@[\w.-]+\.\w+/g) ?? []));
    expect([...values.emails].filter((e) => emails.has(e))).toEqual([]);
    const phones = new Set(texts.flatMap((t) => t.match(/\+\d[\d ]{8,}\d/g) ?? []));
    expect([...values.phones].filter((p) => phones.has(p))).toEqual([]);
    const everything = texts.join('\n');
    for (const trace of ['zrodlo-firma', 'Świętojańska', 'Gdyni', 'Bydgoszcz', 'Regensburg', 'firma-1', 'Kierownik', 'Prezes', 'Wdrożenie', 'Umowa', 'Wybrali'])
      expect(everything).not.toContain(trace);
    // The fakes are real-looking and keep the locale: a Polish last name is replaced by a Polish one.
    const polish = new Set(NAMES.pl.last.flatMap((l) => [l, l.replace(/ski$/, 'ska').replace(/cki$/, 'cka')]));
    const sourcePolish = dbRows<{ id: string }>(
      source.db,
      "SELECT id FROM leads WHERE last_name IN ('Grzegorzewski', 'Szczepańska', 'Przybyłowicz', 'Wawrzyniak', 'Zawadzka')",
    ).map((r) => r.id);
    const targetLast = byExternal<{ last_name: string; email: string }>(target.db, 'SELECT external_id, last_name, email FROM leads');
    expect(sourcePolish.length).toBeGreaterThan(50);
    for (const id of sourcePolish) expect(polish.has(targetLast.get(id)!.last_name)).toBe(true);
    // One person, one fake: a lead converted into a new client (a person) has that client's email, masked alike.
    const madeByConversion = dbValue(
      source.db,
      'SELECT COUNT(*) FROM leads JOIN clients ON clients.id = leads.converted_client_id WHERE clients.email = leads.email',
    );
    expect(madeByConversion).toBeGreaterThanOrEqual(countsIn(source.db).leads / 20 - 1);
    expect(dbValue(target.db, 'SELECT COUNT(*) FROM leads JOIN clients ON clients.id = leads.converted_client_id WHERE clients.email = leads.email')).toBe(
      madeByConversion,
    );
  });

  it('a rerun writes nothing: every record unchanged, no event', async () => {
    const events = dbValue(target.db, 'SELECT COUNT(*) FROM events');
    const latest = dbValue<string>(
      target.db,
      'SELECT MAX(updated_at) FROM (SELECT updated_at FROM leads UNION ALL SELECT updated_at FROM clients UNION ALL SELECT updated_at FROM deals UNION ALL SELECT updated_at FROM invoices UNION ALL SELECT updated_at FROM contacts)',
    );
    const { code, report } = await copy(target, ['--mask', 'default']);
    expect(code).toBe(0);
    expect(report.summary).toMatchObject({ created: 0, updated: 0, failed: 0, unchanged: total(report.summary) });
    expect(dbValue(target.db, 'SELECT COUNT(*) FROM events')).toBe(events);
    expect(
      dbValue<string>(
        target.db,
        'SELECT MAX(updated_at) FROM (SELECT updated_at FROM leads UNION ALL SELECT updated_at FROM clients UNION ALL SELECT updated_at FROM deals UNION ALL SELECT updated_at FROM invoices UNION ALL SELECT updated_at FROM contacts)',
      ),
    ).toBe(latest);
  });

  it('--since last copies only what changed, and --prune deletes what the source deleted', async () => {
    const leads = dbRows<{ id: string }>(source.db, "SELECT id FROM leads WHERE status != 'converted' ORDER BY id LIMIT 4").map((r) => r.id);
    // A tag (kept) with the note (masked): two notes may well mask to one sentence, a tag cannot hide the change.
    for (const id of leads.slice(0, 3)) expect((await src.patch(`/v1/leads/${id}`, { notes: 'Zadzwonić do Bożydara', tags: ['zmiana'] })).status).toBe(200);
    const clients = dbRows<{ id: string }>(source.db, 'SELECT id FROM clients ORDER BY id LIMIT 2').map((r) => r.id);
    for (const id of clients) expect((await src.patch(`/v1/clients/${id}`, { website: 'https://nowa-strona.pl' })).status).toBe(200);
    // A contact person the source deleted goes in the target too (bulk never deletes one).
    const withTwo = dbValue<string>(
      source.db,
      'SELECT client_id FROM contacts WHERE client_id NOT IN (?, ?) GROUP BY client_id HAVING COUNT(*) > 1 ORDER BY client_id LIMIT 1',
      clients[0],
      clients[1],
    );
    const dropped = dbValue<string>(source.db, 'SELECT id FROM contacts WHERE client_id = ? AND is_primary = 0 LIMIT 1', withTwo);
    expect((await src.delete(`/v1/clients/${withTwo}/contacts/${dropped}`)).status).toBe(200);
    expect((await src.post('/v1/deals', { title: 'Nowa umowa', value: 5, currency: 'EUR', stage: 'won', client_id: clients[0] })).status).toBe(201);
    // A won deal reopened in the source, and a lost one won: the target's follow (through its own reopen).
    const won = dbValue<string>(source.db, "SELECT id FROM deals WHERE stage = 'won' ORDER BY id LIMIT 1");
    const lost = dbValue<string>(source.db, "SELECT id FROM deals WHERE stage = 'lost' ORDER BY id LIMIT 1");
    expect((await src.post(`/v1/deals/${won}/reopen`, { stage: 'proposal' })).status).toBe(200);
    expect((await src.post(`/v1/deals/${lost}/reopen`, { stage: 'negotiation' })).status).toBe(200);
    expect((await src.post(`/v1/deals/${lost}/win`)).status).toBe(200);
    expect((await src.delete(`/v1/leads/${leads[3]}`)).status).toBe(200);
    const { code, report } = await copy(target, ['--mask', 'default', '--since', 'last', '--prune']);
    expect(code).toBe(0);
    const why = () =>
      `${JSON.stringify(report)}\n${['clients', 'leads', 'deals'].map((r) => readFileSync(join(tmp.path, `to-${target.baseUrl.split(':').pop()}`, r, 'failed.csv'), 'utf8')).join('')}`;
    expect(report.resources.leads, why()).toMatchObject({ created: 0, updated: 3, failed: 0, deleted_in_source: 1, pruned: 1 });
    expect(report.resources.clients, why()).toMatchObject({ created: 0, updated: 3, failed: 0 });
    expect(report.resources.deals, why()).toMatchObject({ created: 1, updated: 2, failed: 0 });
    const stage = (id: string) => dbValue<string>(target.db, 'SELECT stage FROM deals WHERE external_id = ?', id);
    expect([stage(won), stage(lost)]).toEqual(['proposal', 'won']);
    expect(report.resources.invoices).toMatchObject({ created: 0, updated: 0, failed: 0 });
    // Only the changed records were read, and at most the one whose change was the watermark itself (updated_after is strict).
    expect(report.summary.unchanged).toBeLessThanOrEqual(1);
    expect(countsIn(target.db)).toEqual(countsIn(source.db));

    // A full copy reports a deletion and keeps the record; --prune deletes it.
    const gone = dbRows<{ id: string }>(source.db, "SELECT id FROM leads WHERE status != 'converted' ORDER BY id DESC LIMIT 1")[0]!.id;
    expect((await src.delete(`/v1/leads/${gone}`)).status).toBe(200);
    const reported = await copy(target, ['--mask', 'default', '--resources', 'leads']);
    expect(reported.report.resources.leads).toMatchObject({ deleted_in_source: 1, pruned: 0, unchanged: countsIn(source.db).leads });
    expect(dbValue(target.db, 'SELECT COUNT(*) FROM leads WHERE external_id = ?', gone)).toBe(1);
    const pruned = await copy(target, ['--mask', 'default', '--resources', 'leads', '--prune']);
    expect(pruned.report.resources.leads).toMatchObject({ deleted_in_source: 1, pruned: 1 });
    expect(dbValue(target.db, 'SELECT COUNT(*) FROM leads WHERE external_id = ?', gone)).toBe(0);
  });

  it('the same key gives the same fakes in another target; another key other ones', async () => {
    const masked = (db: string) =>
      dbRows<Record<string, string>>(
        db,
        "SELECT external_id, first_name || '|' || last_name || '|' || email || '|' || coalesce(phone, '') || '|' || coalesce(company, '') || '|' || coalesce(notes, '') AS v FROM leads UNION ALL SELECT external_id, name || '|' || coalesce(email, '') || '|' || coalesce(website, '') || '|' || coalesce(address, '') FROM clients UNION ALL SELECT external_id, title FROM deals ORDER BY 1",
      );
    await copy(twin, ['--mask', 'default'], key2, join(tmp.path, 'twin-key2'));
    const other = new Map(masked(twin.db).map((r) => [r.external_id, r.v]));
    const mine = masked(target.db);
    expect(mine.filter((r) => other.get(r.external_id!) === r.v).length).toBeLessThan(mine.length / 50);

    expect((await apiClient(twin).post('/_sandbox/reset')).status).toBe(200);
    await copy(twin, ['--mask', 'default'], key1, join(tmp.path, 'twin-key1'));
    expect(masked(twin.db)).toEqual(mine);
  });
});
