import { afterAll, describe, expect, it } from 'vitest';
import { LeadListQuery } from '../../src/schemas/lead.js';
import { authenticateKey, createApiKey } from '../../src/services/api-keys.js';
import { createContext } from '../../src/services/context.js';
import { createLead, listLeads, updateLead } from '../../src/services/leads.js';
import { RequestLogWriter } from '../../src/services/request-log.js';
import { UsageMeter } from '../../src/services/usage.js';
import { openDb } from '../../src/store/db.js';
import { bookkeepingWrite } from '../../src/store/list-json.js';
import { stmt } from '../../src/store/rows.js';

/**
 * The sandbox's bookkeeping writes (the request log, the usage counters, a key's last use) go to
 * tables no list page is made of, so they keep the kept pages (src/store/list-json.ts, docs/benchmarks.md);
 * any write to the listed data still drops them, and the next page shows it.
 */
const db = openDb(':memory:');
afterAll(() => db.close());
const now = Date.parse('2026-11-26T10:00:00.000Z');
const ctx = { ...createContext(db), clock: () => now };
const query = LeadListQuery.parse({ limit: '50' });
const page = () => listLeads(ctx, query).bytes;
const emails = () => (JSON.parse(page().toString('utf8')) as { data: { email: string }[] }).data.map((l) => l.email);
const count = (table: string) => stmt(db, `SELECT count(*) FROM ${table}`).pluck().get() as number;

describe('kept list pages and bookkeeping writes', () => {
  createLead(ctx, { first_name: 'Ada', email: 'ada@example.com' });
  const key = createApiKey(ctx, { name: 'ci', scopes: ['leads:read'] });

  it('keeps the page across a request-log flush, a usage flush and a key use, which all were written', () => {
    const first = page();
    const log = new RequestLogWriter(ctx);
    log.record({
      id: 'req_1',
      method: 'GET',
      path: '/v1/leads',
      query: null,
      status: 200,
      duration_ms: 1,
      key_id: key.id,
      idempotency_key: null,
      idempotent_replayed: false,
      source: 'api',
      request_body: null,
      response_body: null,
      created_at: new Date(now).toISOString(),
    });
    log.flush();
    const meter = new UsageMeter(db, () => now);
    meter.record(key.id, 'GET /v1/leads', 200);
    meter.flush();
    expect(authenticateKey(ctx, key.secret)?.subject).toBe(key.id);

    expect(count('request_logs')).toBe(1);
    expect(count('usage_counters')).toBe(1);
    expect(stmt(db, 'SELECT last_used_at FROM api_keys WHERE id = ?').pluck().get(key.id)).not.toBeNull();
    expect(page()).toBe(first); // the kept page itself, not one made again
  });

  it('drops it on a write to the listed data, in the same connection as the bookkeeping', () => {
    const first = page();
    const ben = createLead(ctx, { first_name: 'Ben', email: 'ben@example.com' });
    expect(page()).not.toBe(first);
    expect(emails()).toEqual(['ada@example.com', 'ben@example.com']);
    const second = page();
    new UsageMeter(db, () => now).flush(); // nothing pending: no write at all
    updateLead(ctx, ben.id, { email: 'ben@example.org' });
    expect(page()).not.toBe(second);
    expect(emails()).toEqual(['ada@example.com', 'ben@example.org']);
  });

  it('keeps the count right when a bookkeeping write throws after writing, and the next data write still drops the page', () => {
    const first = page();
    const failing = db.transaction(() => {
      stmt(db, "INSERT INTO usage_counters (day, subject, endpoint, status, count) VALUES ('2026-11-26', 'x', 'GET /v1/leads', 200, 1)").run();
      throw new Error('after a write');
    });
    expect(() => bookkeepingWrite(db, failing)).toThrow('after a write');
    expect(page()).toBe(first);
    createLead(ctx, { first_name: 'Cy', email: 'cy@example.com' });
    expect(emails()).toEqual(['ada@example.com', 'ben@example.org', 'cy@example.com']);
  });
});
