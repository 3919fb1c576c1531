import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { LeadBulkRequest } from '../../src/schemas/bulk.js';
import { runBulk } from '../../src/services/bulk.js';
import { leadTarget } from '../../src/services/bulk-targets.js';
import { createContext } from '../../src/services/context.js';
import { BULK_CHECKPOINT_PAGES, BULK_QUIET_MS, CHECKPOINT_PAGES, checkpointForBulkWrites } from '../../src/store/checkpoints.js';
import { openDb } from '../../src/store/db.js';

/**
 * The write-ahead log is copied into the file in small steps (short pauses for everyone) except
 * while bulk writes come in, when large steps make an import faster (src/store/checkpoints.ts,
 * docs/benchmarks.md). A real database file: the setting is its connection's.
 */
const dir = mkdtempSync(join(tmpdir(), 'crm-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

const steps = (db: ReturnType<typeof openDb>) => db.pragma('wal_autocheckpoint', { simple: true });

describe('checkpoint steps', () => {
  it('are small on a new connection, large from a bulk write until the writes have been quiet a while', () => {
    vi.useFakeTimers();
    const db = openDb(join(dir, 'steps.db'));
    expect(steps(db)).toBe(CHECKPOINT_PAGES);
    checkpointForBulkWrites(db);
    expect(steps(db)).toBe(BULK_CHECKPOINT_PAGES);
    vi.advanceTimersByTime(BULK_QUIET_MS - 10);
    // Another batch of the same import: the quiet period starts over.
    checkpointForBulkWrites(db);
    vi.advanceTimersByTime(BULK_QUIET_MS - 10);
    expect(steps(db)).toBe(BULK_CHECKPOINT_PAGES);
    vi.advanceTimersByTime(10);
    expect(steps(db)).toBe(CHECKPOINT_PAGES);
    // And large again for the next import.
    checkpointForBulkWrites(db);
    expect(steps(db)).toBe(BULK_CHECKPOINT_PAGES);
    db.close();
    expect(() => vi.advanceTimersByTime(BULK_QUIET_MS)).not.toThrow(); // a closed database is left alone
  });

  it('turn large for a bulk write through the service the bulk routes call, and not for a dry run', () => {
    vi.useFakeTimers();
    const ctx = createContext(openDb(join(dir, 'bulk.db')), () => 'http://127.0.0.1:4010');
    const request = (dry_run: boolean) => LeadBulkRequest.parse({ mode: 'create', dry_run, records: [{ first_name: 'Ada', email: 'ada@example.com' }] });
    expect(runBulk(ctx, leadTarget, request(true)).summary).toMatchObject({ created: 1 });
    expect(steps(ctx.db)).toBe(CHECKPOINT_PAGES);
    expect(runBulk(ctx, leadTarget, request(false)).summary).toMatchObject({ created: 1 });
    expect(steps(ctx.db)).toBe(BULK_CHECKPOINT_PAGES);
    vi.advanceTimersByTime(BULK_QUIET_MS);
    expect(steps(ctx.db)).toBe(CHECKPOINT_PAGES);
    ctx.db.close();
  });
});
