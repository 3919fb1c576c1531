import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/services/clients.js';
import { createContext } from '../../src/services/context.js';
import { createDeal } from '../../src/services/deals.js';
import { createInvoice } from '../../src/services/invoices.js';
import { createLead } from '../../src/services/leads.js';
import { closeDb, openDb } from '../../src/store/db.js';
import { emptySearchIndexes } from '../../src/store/search-index.js';

/**
 * Issue #45: a database written before the search rows were made at each commit can hold marked
 * records with no search row (every record, after migration 012, or an import never searched).
 * Opening it makes their rows (migration 019), so no search is left to make them while every
 * other request waits.
 */
const dir = mkdtempSync(join(tmpdir(), 'crm-search-upgrade-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NAMES = ['client', 'lead', 'deal', 'invoice'];

describe('opening a database whose search rows were left to the first search', () => {
  it('makes every marked record its row and forgets the marks', () => {
    const path = join(dir, 'old.db');
    const db = openDb(path);
    const ctx = createContext(db);
    const client = createClient(ctx, { name: 'Figaro Freight', email: 'office@figaro.test', contacts: [{ first_name: 'Susanna' }] });
    createLead(ctx, { first_name: 'Cherubino', company: 'Almaviva Arts' });
    createDeal(ctx, { title: 'Barbarina bid', value: 1, currency: 'EUR', stage: 'lead_in', client_id: client.id });
    createInvoice(ctx, { client_id: client.id, send: false, line_items: [{ description: 'x', quantity: 1, unit_price: 1 }] });
    // As the database stood after migration 012 or an unsearched import: records marked, no rows.
    emptySearchIndexes(db);
    for (const name of NAMES) db.exec(`INSERT INTO ${name}_search_stale SELECT rowid FROM ${name}s`);
    db.exec('DELETE FROM schema_migrations WHERE version = 19'); // only 019 runs again
    closeDb(db);

    const upgraded = openDb(path);
    try {
      const count = (sql: string) => upgraded.prepare(sql).pluck().get();
      for (const name of NAMES) expect(count(`SELECT count(*) FROM ${name}_search_stale`), name).toBe(0);
      const match = (name: string, q: string) => count(`SELECT count(*) FROM ${name}_search WHERE ${name}_search MATCH '${q}'`);
      expect(match('client', 'susanna')).toBe(1);
      expect(match('lead', 'almaviva')).toBe(1);
      expect(match('deal', 'barbarina figaro')).toBe(1);
      expect(match('invoice', 'figaro')).toBe(1);
    } finally {
      closeDb(upgraded);
    }
  });
});
