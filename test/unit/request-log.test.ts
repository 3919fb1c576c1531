import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, type Ctx } from '../../src/services/context.js';
import { BODY_LIMIT, KEEP, logBody, redact, RequestLogWriter } from '../../src/services/request-log.js';
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
    const ids = ctx.db.prepare('SELECT id FROM request_logs ORDER BY id').pluck().all() as string[];
    expect(ids).toHaveLength(KEEP);
    expect(ids[0]).toBe(record(5).id);
    // A writer made later (a restart) counts what is there and goes on trimming.
    new RequestLogWriter(ctx).record(record(KEEP + 5));
    expect(ctx.db.prepare('SELECT min(id) FROM request_logs').pluck().get()).toBe(record(6).id);
  });

  it('redacts secret fields at any depth, and key shapes inside any text', () => {
    const out = redact({ secret: 's', nested: [{ client_secret: 'c', refresh_token: 'r', authorization: 'Bearer x' }], api_key: 'k', note: 'key crm_test_' + 'a'.repeat(32), name: 'kept' });
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
