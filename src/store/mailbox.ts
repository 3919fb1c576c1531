import type { Db } from './db.js';
import { insertRow, stmt, type Row } from './rows.js';

/** A message in the sandbox's mailbox, as stored. */
export interface MailRow {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  invoice_id: string | null;
  created_at: string;
}

export const insertMail = (db: Db, mail: MailRow): void => insertRow(db, 'mailbox', mail as unknown as Row);

/** The newest thousand messages, to one recipient (case-insensitive) or to anyone. */
export const newestMail = (db: Db, recipient?: string): MailRow[] =>
  (recipient
    ? stmt(db, 'SELECT * FROM mailbox WHERE recipient = ? COLLATE NOCASE ORDER BY id DESC LIMIT 1000').all(recipient)
    : stmt(db, 'SELECT * FROM mailbox ORDER BY id DESC LIMIT 1000').all()) as MailRow[];
