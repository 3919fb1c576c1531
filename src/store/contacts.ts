import type { Contact } from '../schemas/client.js';
import type { Db } from './db.js';
import { deleteRow, getRow, insertRow, insertRows, rowCodec, stmt, updateRow, type Row } from './rows.js';

/** A client's contact persons: is_primary is stored as 0/1. */
const codec = rowCodec<Contact>({ bool: ['is_primary'] });

/** A client's contact persons, by id. */
export const contactsOfClient = (db: Db, clientId: string): Contact[] =>
  (stmt(db, 'SELECT * FROM contacts WHERE client_id = ? ORDER BY id').all(clientId) as Row[]).map(codec.fromRow);

export const contactFromRow = (row: Row): Contact => codec.fromRow(row);

export function findContact(db: Db, id: string): Contact | undefined {
  const row = getRow(db, 'contacts', id);
  return row && codec.fromRow(row);
}

/** Makes every other contact person of the client not primary. */
export function demoteOtherPrimaryContacts(db: Db, clientId: string, exceptId: string, now: string): void {
  stmt(db, 'UPDATE contacts SET is_primary = 0, updated_at = ? WHERE client_id = ? AND is_primary = 1 AND id != ?').run(now, clientId, exceptId);
}

export const insertContactRow = (db: Db, contact: Contact): void => insertRow(db, 'contacts', codec.toRow(contact));

/** Many contact persons, a hundred a statement (rows.ts: insertRows). */
export const insertContactRows = (db: Db, contacts: Contact[]): void => insertRows(db, 'contacts', contacts.map(codec.toRow));

/** Writes every field of a stored contact person. */
export const writeContact = (db: Db, contact: Contact): void => updateRow(db, 'contacts', codec.toRow(contact));

export const deleteContactRow = (db: Db, id: string): boolean => deleteRow(db, 'contacts', id);

/** The email an invoice goes to when its client has none: the primary contact's, else the first contact's that has one. */
export const firstContactEmail = (db: Db, clientId: string): string | undefined =>
  stmt(db, 'SELECT email FROM contacts WHERE client_id = ? AND email IS NOT NULL ORDER BY is_primary DESC, id LIMIT 1').pluck().get(clientId) as
    | string
    | undefined;
