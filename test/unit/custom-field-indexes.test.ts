import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/services/context.js';
import { customFieldList } from '../../src/services/custom-field-filters.js';
import { createField, deleteField, updateField } from '../../src/services/fields.js';
import { insertLeads, newLead } from '../../src/services/leads.js';
import { inTransaction } from '../../src/services/transactions.js';
import { closeDb, openDb, type Db } from '../../src/store/db.js';
import { pageQuery, type ListRequest } from '../../src/store/list.js';

/**
 * Each custom field has an index on its value (store/custom-field-sql.ts), and the lists' filters and
 * sorts are written so that SQLite uses it: read from EXPLAIN QUERY PLAN of the page's own query.
 */
const dir = mkdtempSync(join(tmpdir(), 'crm-cf-indexes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const indexesOf = (db: Db, table: string) =>
  db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND name LIKE ? ORDER BY name").pluck().all(table, `${table}_cf_%`);

const db = openDb(':memory:');
const ctx = createContext(db);
const TIERS = ['gold', 'silver', 'bronze'];

beforeAll(() => {
  createField(ctx, {
    object: 'lead',
    key: 'tier',
    label: 'Tier',
    type: 'select',
    required: false,
    options: TIERS.map((value) => ({ value, label: value })),
  });
  createField(ctx, { object: 'lead', key: 'employees', label: 'Employees', type: 'number', required: false });
  // Enough leads that a scan and a search cost differently to the planner.
  inTransaction(ctx, () =>
    insertLeads(
      ctx,
      Array.from({ length: 3000 }, (_, i) => newLead(ctx, { first_name: `L${i}`, custom_fields: { tier: TIERS[i % 3]!, employees: i } })),
    ),
  );
});

/** The plan of the page a list request would read, one line per step. */
function planOf(query: Record<string, unknown>, cursor?: string): string[] {
  const q = { limit: 50, sort: 'created', ...query } as { limit: number; sort: string };
  const { limit, sort, order, custom_fields, ...filters } = q as Record<string, any>;
  const req: ListRequest = {
    table: 'leads',
    conditions: [],
    filters: { ...filters, custom_fields },
    sort,
    order,
    limit,
    cursor,
    secret: ctx.cursorSecret,
    customFields: customFieldList(ctx, 'lead', q as any),
  };
  const page = pageQuery(db, req);
  return (db.prepare(`EXPLAIN QUERY PLAN SELECT id ${page.from}`).all(...page.params) as { detail: string }[]).map((r) => r.detail);
}

const eq = (key: string, value: string) => ({ custom_fields: [{ key, op: 'eq', value }] });

describe('the index of a custom field', () => {
  it('is made when the field is created and dropped when it is deleted', () => {
    expect(indexesOf(db, 'leads')).toEqual(['leads_cf_employees', 'leads_cf_tier']);
    const field = createField(ctx, { object: 'lead', key: 'short_lived', label: 'x', type: 'text', required: false });
    expect(indexesOf(db, 'leads')).toContain('leads_cf_short_lived');
    deleteField(ctx, field.id);
    expect(indexesOf(db, 'leads')).not.toContain('leads_cf_short_lived');
  });

  it('goes when a select becomes a multi_select, whose "contains" no index on the value answers', () => {
    const field = createField(ctx, { object: 'client', key: 'region', label: 'x', type: 'select', required: false, options: [{ value: 'eu', label: 'EU' }] });
    expect(indexesOf(db, 'clients')).toContain('clients_cf_region');
    updateField(ctx, field.id, { type: 'multi_select' });
    expect(indexesOf(db, 'clients')).not.toContain('clients_cf_region');
  });

  it('is what an exact match reads, in id order (no sort)', () => {
    const plan = planOf(eq('tier', 'gold'));
    expect(plan.join('\n')).toMatch(/USING (COVERING )?INDEX leads_cf_tier/);
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
  });

  it('is what a narrow range reads; a wide one walks the ids instead (the page fills after a few)', () => {
    expect(planOf({ custom_fields: [{ key: 'employees', op: 'gte', value: '2990' }] }).join('\n')).toMatch(/INDEX leads_cf_employees/);
    const wide = planOf({ custom_fields: [{ key: 'employees', op: 'gte', value: '10' }] }).join('\n');
    expect(wide).not.toMatch(/leads_cf_employees/);
    expect(wide).not.toMatch(/TEMP B-TREE/);
  });

  it('is the order of a sort by the field, both ways and past a cursor, read without sorting', () => {
    for (const order of ['asc', 'desc']) {
      expect(planOf({ sort: 'custom_fields.employees', order }).join('\n')).toMatch(/SCAN leads USING (COVERING )?INDEX leads_cf_employees/);
    }
    const first = pageQuery(db, {
      table: 'leads',
      conditions: [],
      filters: {},
      sort: 'custom_fields.employees',
      limit: 50,
      cursor: undefined,
      secret: ctx.cursorSecret,
      customFields: customFieldList(ctx, 'lead', { sort: 'custom_fields.employees' }),
    });
    const cursor = first.cursorAfter({ id: db.prepare('SELECT id FROM leads ORDER BY id LIMIT 1 OFFSET 1500').pluck().get() as string });
    const after = planOf({ sort: 'custom_fields.employees' }, cursor).join('\n');
    // SEARCH: the index is entered at the cursor's value, not read from its start.
    expect(after).toMatch(/SEARCH leads USING (COVERING )?INDEX leads_cf_employees \(<expr>>\?\)/);
    expect(after).not.toMatch(/TEMP B-TREE/);
  });
});

describe('a database whose fields were defined before fields had indexes', () => {
  it('gets an index for each of them when it is opened (migration 023)', () => {
    const path = join(dir, 'old.db');
    const old = openDb(path);
    createField(createContext(old), { object: 'deal', key: 'segment', label: 'Segment', type: 'text', required: false });
    // As the database stood before migration 023.
    old.exec('DROP INDEX deals_cf_segment');
    old.exec('DELETE FROM schema_migrations WHERE version = 23');
    closeDb(old);
    const upgraded = openDb(path);
    try {
      expect(indexesOf(upgraded, 'deals')).toEqual(['deals_cf_segment']);
    } finally {
      closeDb(upgraded);
    }
  });
});
