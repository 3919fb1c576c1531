import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/services/context.js';
import { listEvents, RETENTION_MS } from '../../src/services/event-log.js';
import { recordEvent } from '../../src/services/events.js';
import { openDb } from '../../src/store/db.js';

/**
 * The events list keeps its pages like the other lists (src/store/list-json.ts) although its
 * retention bound moves with the clock (docs/benchmarks.md), and the retention stays exact: an event is
 * listed until the very millisecond it is 30 days old, with or without a kept page.
 */
const db = openDb(':memory:');
afterAll(() => db.close());
let now = Date.parse('2026-11-26T10:00:00.000Z');
const ctx = { ...createContext(db), clock: () => now };
const page = () => listEvents(ctx, { limit: 50 });
const ids = () => (JSON.parse(page().bytes.toString('utf8')) as { data: { id: string }[] }).data.map((e) => e.id);

describe('the events list', () => {
  const oldest = recordEvent(ctx, 'lead.created', { id: 'lead_old' });
  now += 5_000;
  const newer = recordEvent(ctx, 'lead.created', { id: 'lead_new' });

  it('is the same kept page while the clock moves and no event leaves the window', () => {
    const first = page();
    now += 60_000; // a minute later: the cutoff moved, the window holds the same events
    expect(page().bytes).toBe(first.bytes); // the kept page itself, not one made again
    expect(ids()).toEqual([oldest, newer]);
  });

  it('drops an event exactly when it is 30 days old, though no write happened in between', () => {
    const created = Date.parse('2026-11-26T10:00:00.000Z');
    now = created + RETENTION_MS; // the cutoff equals its created_at: still within
    expect(ids()).toEqual([oldest, newer]);
    now = created + RETENTION_MS + 1; // one millisecond past
    expect(ids()).toEqual([newer]);
    now = created + 5_000 + RETENTION_MS + 1;
    expect(ids()).toEqual([]);
  });
});
