import type { Lead } from '../schemas/lead.js';
import type { Db } from './db.js';
import { perDb, rowJsonSql } from './list-json.js';
import { deleteRow, getRow, insertRow, insertRows, rowCodec, updateRow } from './rows.js';

const COLUMNS = { json: ['tags', 'custom_fields'] };
const codec = rowCodec<Lead>(COLUMNS);

/** A lead row as its JSON, made by SQLite (for the list: list-json.ts), as findLead gives it. */
export const leadJsonSql = perDb((db: Db) => rowJsonSql(db, { table: 'leads', ...COLUMNS }));

export function findLead(db: Db, id: string): Lead | undefined {
  const row = getRow(db, 'leads', id);
  return row && codec.fromRow(row);
}

export const insertLead = (db: Db, lead: Lead): void => insertRow(db, 'leads', codec.toRow(lead));

/** Many leads, a hundred a statement (rows.ts: insertRows). */
export const insertLeadRows = (db: Db, leads: Lead[]): void => insertRows(db, 'leads', leads.map(codec.toRow));

/** Writes every field of a stored lead. */
export const writeLead = (db: Db, lead: Lead): void => updateRow(db, 'leads', codec.toRow(lead));

export const deleteLeadRow = (db: Db, id: string): boolean => deleteRow(db, 'leads', id);
