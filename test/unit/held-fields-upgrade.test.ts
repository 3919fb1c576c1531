import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/services/clients.js';
import { createContext } from '../../src/services/context.js';
import { createDeal } from '../../src/services/deals.js';
import { createLead } from '../../src/services/leads.js';
import { listFields } from '../../src/services/fields.js';
import { closeDb, openDb } from '../../src/store/db.js';

/**
 * Migration 021 on a database written before custom fields had definitions: every key the records
 * hold becomes a field (typed by its values), keys that cannot be field keys move to ones that can,
 * and no value is lost.
 */
const dir = mkdtempSync(join(tmpdir(), 'crm-held-fields-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('opening a database whose records hold custom fields with no definitions', () => {
  it('defines a field for each key held, and keeps every value', () => {
    const path = join(dir, 'old.db');
    const db = openDb(path);
    const ctx = createContext(db);
    // Values as records held them before definitions existed: written to the rows themselves.
    const hold = (table: string, id: string, values: Record<string, unknown>) =>
      db.prepare(`UPDATE ${table} SET custom_fields = ? WHERE id = ?`).run(JSON.stringify(values), id);
    const client = createClient(ctx, { name: 'Held GmbH' });
    hold('clients', client.id, { employees: 40, vip: true, 'Company Size': '11-50', email: 'x@held.example' });
    hold('clients', createClient(ctx, { name: 'Other GmbH' }).id, { employees: 7.5, vip: false });
    hold('leads', createLead(ctx, { first_name: 'Held' }).id, { source_detail: 'fair', score: 3 });
    hold('deals', createDeal(ctx, { title: 'Held deal', value: 1, currency: 'EUR', stage: 'lead_in' }).id, { mixed: 1 });
    hold('deals', createDeal(ctx, { title: 'Held deal 2', value: 1, currency: 'EUR', stage: 'lead_in' }).id, { mixed: 'one' });
    // As the database stood before migration 021.
    db.exec('DROP TABLE fields');
    db.exec('DELETE FROM schema_migrations WHERE version = 21');
    closeDb(db);

    const upgraded = openDb(path);
    try {
      const after = createContext(upgraded);
      const fields = listFields(after, { limit: 1000 }).data.map((f) => [f.object, f.key, f.type, f.label]);
      expect(fields).toEqual([
        ['client', 'company_size', 'text', 'Company Size'],
        ['client', 'email_2', 'text', 'email'],
        ['client', 'employees', 'number', 'employees'],
        ['client', 'vip', 'boolean', 'vip'],
        ['deal', 'mixed', 'text', 'mixed'],
        ['lead', 'score', 'number', 'score'],
        ['lead', 'source_detail', 'text', 'source_detail'],
      ]);
      const values = JSON.parse(upgraded.prepare('SELECT custom_fields FROM clients WHERE id = ?').pluck().get(client.id) as string);
      expect(values).toEqual({ employees: 40, vip: true, company_size: '11-50', email_2: 'x@held.example' });
    } finally {
      closeDb(upgraded);
    }
  });
});
