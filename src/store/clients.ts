import type { Client } from '../schemas/client.js';
import type { Db } from './db.js';
import { perDb, rowJsonSql } from './list-json.js';
import { rowCodec } from './rows.js';

const COLUMNS = { json: ['tags', 'custom_fields', 'address'] };

/** A client's own row; its contact persons live in the contacts table. */
export const clientCodec = rowCodec<Omit<Client, 'contacts'>>({ ...COLUMNS, omit: ['contacts'] });

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
