import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/services/context.js';
import { inTransaction } from '../../src/services/transactions.js';
import { seed } from '../../src/seed/seed.js';
import { openDb } from '../../src/store/db.js';
import {
  CONFIGURATION_TABLES,
  DATA_TABLES,
  DERIVED_TABLE,
  REGISTRY_TABLES,
  SEED_CONFIGURATION_TABLES,
  SNAPSHOT_TABLES,
  TRAFFIC_TABLES,
} from '../../src/store/tables.js';

/**
 * store/tables.ts is the one list of an account's tables that reset, the seed image and snapshots
 * go by. Three lists of their own had drifted apart before; these checks make a new table take its
 * place in the one list, and keep the list in the order its users rely on.
 */
const db = openDb(':memory:');
const tables = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[]).filter(
  (t) => !DERIVED_TABLE.test(t),
);
const snapshotOnly = SNAPSHOT_TABLES.filter((t) => !(DATA_TABLES as readonly string[]).includes(t));
const lists: Record<string, readonly string[]> = { DATA_TABLES, snapshotOnly, CONFIGURATION_TABLES, TRAFFIC_TABLES, REGISTRY_TABLES };

describe('the tables of an account', () => {
  it('names every table of a migrated database in exactly one list', () => {
    const placed = tables.map((table) => ({ table, lists: Object.keys(lists).filter((name) => lists[name]!.includes(table)) }));
    expect(placed.filter((p) => p.lists.length !== 1)).toEqual([]);
  });

  it('names no table the migrations do not make', () => {
    expect(
      Object.values(lists)
        .flat()
        .filter((table) => !tables.includes(table)),
    ).toEqual([]);
  });

  it('has the snapshot hold every data table', () => {
    expect(SNAPSHOT_TABLES.slice(0, DATA_TABLES.length)).toEqual([...DATA_TABLES]);
  });

  it('lists the data and snapshot tables parents first (the order rows are inserted in)', () => {
    const late = SNAPSHOT_TABLES.flatMap((table, index) => {
      const parents = (db.prepare(`PRAGMA foreign_key_list("${table}")`).all() as { table: string }[]).map((fk) => fk.table);
      return parents.filter((parent) => SNAPSHOT_TABLES.indexOf(parent as never) > index).map((parent) => `${table} before its parent ${parent}`);
    });
    expect(late).toEqual([]);
  });

  it('has the seed write only data tables (what reset empties and the seed image copies) and the field definitions its records use', () => {
    const seeded = openDb(':memory:');
    const ctx = createContext(seeded, () => 'http://localhost');
    inTransaction(ctx, () => seed(ctx, 1));
    const written = tables.filter((table) => seeded.prepare(`SELECT 1 FROM "${table}" LIMIT 1`).get() !== undefined);
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((table) => !(DATA_TABLES as readonly string[]).includes(table))).toEqual([...SEED_CONFIGURATION_TABLES]);
    seeded.close();
  });
});
