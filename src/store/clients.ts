import type { Client } from '../schemas/client.js';
import type { Db } from './db.js';
import { perDb, rowJsonSql } from './list-json.js';
import { deleteRow, getRow, insertRows, rowCodec, stmt, updateRow } from './rows.js';

const COLUMNS = { json: ['tags', 'custom_fields', 'address'] };

/** A client's own row; its contact persons live in the contacts table. */
const clientCodec = rowCodec<Omit<Client, 'contacts'>>({ ...COLUMNS, omit: ['contacts'] });

/**
 * A client with its contact persons as JSON, in SQL (for list pages, store/list-json.ts): the
 * contacts ordered by id, as contactsOf returns them, with is_primary as the contacts codec
 * reads it.
 */
export const clientJsonSql = perDb((db: Db) => {
  const contact = rowJsonSql(db, { table: 'contacts', alias: 'c', bool: ['is_primary'] });
  const contacts = `(SELECT json_group_array(${contact} ORDER BY c.id) FROM contacts c WHERE c.client_id = "clients"."id")`;
  return rowJsonSql(db, { table: 'clients', ...COLUMNS, extra: { contacts } });
});

/** A client's own row, without its contact persons. */
export function findClient(db: Db, id: string): Omit<Client, 'contacts'> | undefined {
  const row = getRow(db, 'clients', id);
  return row && clientCodec.fromRow(row);
}

/** Many clients' own rows, a hundred a statement (rows.ts: insertRows); their contacts are insertContactRows's. */
export const insertClientRows = (db: Db, clients: Omit<Client, 'contacts'>[]): void =>
  insertRows(
    db,
    'clients',
    clients.map((c) => clientCodec.toRow(c)),
  );

/** Writes every field of a stored client's own row. */
export const writeClient = (db: Db, client: Omit<Client, 'contacts'>): void => updateRow(db, 'clients', clientCodec.toRow(client));

/** Marks the client changed (its contact persons did). */
export const touchClient = (db: Db, id: string, now: string): void => void stmt(db, 'UPDATE clients SET updated_at = ? WHERE id = ?').run(now, id);

export const deleteClientRow = (db: Db, id: string): boolean => deleteRow(db, 'clients', id);
