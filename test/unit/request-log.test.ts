import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, type Ctx } from '../../src/services/context.js';
import { redact } from '../../src/services/redact.js';
import { BODY_LIMIT, KEEP, logBody, RequestLogWriter } from '../../src/services/request-log.js';
import { openDb } from '../../src/store/db.js';
import { tempDir } from '../helpers/sandbox.js';

let dir: ReturnType<typeof tempDir>;
let ctx: Ctx;
beforeEach(() => {
  dir = tempDir('crm-reqlog-unit-');
  ctx = createContext(openDb(`${dir.path}/r.db`));
});
afterEach(() => {
  ctx.db.close();
  dir.remove();
});

const record = (i: number) => ({
  id: `req_${String(i).padStart(8, '0')}`,
  method: 'GET',
  path: '/v1/leads',
  query: null,
  status: 200,
  duration_ms: 1,
  key_id: null,
  idempotency_key: null,
  idempotent_replayed: false,
  source: 'api' as const,
  request_body: null,
  response_body: null,
  created_at: new Date().toISOString(),
});

describe('request log', () => {
  it('keeps the newest 10,000 requests', () => {
    const writer = new RequestLogWriter(ctx);
    ctx.db.transaction(() => {
      for (let i = 0; i < KEEP + 5; i++) writer.record(record(i));
    })();
    writer.flush();
    const ids = ctx.db.prepare('SELECT id FROM request_logs ORDER BY id').pluck().all() as string[];
    expect(ids).toHaveLength(KEEP);
    expect(ids[0]).toBe(record(5).id);
    // A writer made later (a restart) counts what is there and goes on trimming.
    const later = new RequestLogWriter(ctx);
    later.record(record(KEEP + 5));
    later.flush();
    expect(ctx.db.prepare('SELECT min(id) FROM request_logs').pluck().get()).toBe(record(6).id);
  });

  it('writes in batches: records wait for flush() (or 500 of them, or 50 ms), then go in one transaction', () => {
    const before = ctx.db.prepare('SELECT count(*) FROM request_logs').pluck().get() as number;
    const writer = new RequestLogWriter(ctx);
    const base = 2 * KEEP;
    for (let i = 0; i < 3; i++) writer.record(record(base + i));
    expect(
      ctx.db
        .prepare('SELECT count(*) FROM request_logs WHERE id IN (?, ?, ?)')
        .pluck()
        .get(record(base).id, record(base + 1).id, record(base + 2).id),
    ).toBe(0);
    writer.flush();
    expect(
      ctx.db
        .prepare('SELECT count(*) FROM request_logs WHERE id IN (?, ?, ?)')
        .pluck()
        .get(record(base).id, record(base + 1).id, record(base + 2).id),
    ).toBe(3);
    for (let i = 0; i < 500; i++) writer.record(record(base + 10 + i));
    expect(
      ctx.db
        .prepare('SELECT count(*) FROM request_logs WHERE id = ?')
        .pluck()
        .get(record(base + 509).id),
    ).toBe(1); // the 500th flushed them
    expect(ctx.db.prepare('SELECT count(*) FROM request_logs').pluck().get()).toBe(Math.min(KEEP, before + 503));
  });

  it('redacts secret fields at any depth, and key shapes inside any text', () => {
    const out = redact({
      secret: 's',
      nested: [{ client_secret: 'c', refresh_token: 'r', authorization: 'Bearer x' }],
      api_key: 'k',
      note: 'key crm_test_' + 'a'.repeat(32),
      name: 'kept',
    });
    expect(out).toEqual({
      secret: '[redacted]',
      nested: [{ client_secret: '[redacted]', refresh_token: '[redacted]', authorization: '[redacted]' }],
      api_key: '[redacted]',
      note: 'key crm_test_[redacted]',
      name: 'kept',
    });
  });

  it('cuts bodies at 64 KB', () => {
    const body = logBody({ notes: 'x'.repeat(100_000) });
    expect(body).toHaveLength(BODY_LIMIT);
    expect(logBody(undefined)).toBeNull();
    expect(logBody('{"token":"t"}')).toBe('{"token":"[redacted]"}');
  });
});
