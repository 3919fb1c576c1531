import { ApiError, notFound } from '../errors.js';
import type { Client, Contact, ContactCreate, ContactUpdate } from '../schemas/client.js';
import { clientCodec } from '../store/clients.js';
import { listTable } from '../store/list.js';
import { deleteRow, getRow, insertRow, rowCodec, stmt, updateRow, type Row } from '../store/rows.js';
import { changedAttributes, sentFields } from './changes.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';
import { inTransaction } from './transactions.js';
import { recordEvent } from './events.js';

/**
 * Contact persons belong to a client and are returned with it. There are no contact event
 * types in the contract, so a change to a client's contacts is reported as client.updated with
 * the old contact list in previous_attributes.
 */
const codec = rowCodec<Contact>({ bool: ['is_primary'] });

export function contactsOf(ctx: Ctx, clientId: string): Contact[] {
  return (stmt(ctx.db, 'SELECT * FROM contacts WHERE client_id = ? ORDER BY id').all(clientId) as Row[]).map(codec.fromRow);
}

/** Only one primary per client: making a contact primary demotes the previous one. */
function demoteOtherPrimaries(ctx: Ctx, clientId: string, exceptId: string): void {
  stmt(ctx.db, 'UPDATE contacts SET is_primary = 0, updated_at = ? WHERE client_id = ? AND is_primary = 1 AND id != ?').run(
    nowIso(ctx),
    clientId,
    exceptId,
  );
}

export function insertContact(ctx: Ctx, clientId: string, input: ContactCreate): Contact {
  const contact = newContact(ctx, clientId, input);
  if (contact.is_primary) demoteOtherPrimaries(ctx, clientId, contact.id);
  insertRow(ctx.db, 'contacts', codec.toRow(contact));
  return contact;
}

/** The contact person a create makes, not yet written: insertContact writes one, insertClients many. */
export function newContact(ctx: Ctx, clientId: string, input: ContactCreate): Contact {
  const now = nowIso(ctx);
  return {
    id: ctx.ids.next('con'),
    client_id: clientId,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    email: input.email ?? null,
    phone: input.phone ?? null,
    role: input.role ?? null,
    is_primary: input.is_primary ?? false,
    created_at: now,
    updated_at: now,
  };
}

export const contactRow = (contact: Contact): Row => codec.toRow(contact);

function clientRow(ctx: Ctx, clientId: string): Row {
  const row = getRow(ctx.db, 'clients', clientId);
  if (!row) throw notFound('client', clientId);
  return row;
}

export function getContact(ctx: Ctx, clientId: string, contactId: string): Contact {
  clientRow(ctx, clientId);
  const row = getRow(ctx.db, 'contacts', contactId);
  if (!row || row.client_id !== clientId) throw notFound('contact person', contactId);
  return codec.fromRow(row);
}

export function listContacts(ctx: Ctx, clientId: string, q: { limit: number; cursor?: string | undefined }) {
  clientRow(ctx, clientId);
  return listTable(ctx.db, ctx.cursorSecret, 'contacts', { ...q, client_id: clientId }, [['client_id = ?', [clientId]]], (rows) =>
    rows.map(codec.fromRow),
  );
}

/** Runs a contact change and reports it on the client, with the contacts as they were. */
function changeContacts<T>(ctx: Ctx, clientId: string, change: () => T): T {
  return inTransaction(ctx, () => {
    clientRow(ctx, clientId);
    const before = contactsOf(ctx, clientId);
    const result = change();
    const now = nowIso(ctx);
    stmt(ctx.db, 'UPDATE clients SET updated_at = ? WHERE id = ?').run(now, clientId);
    const client = clientSnapshot(ctx, clientId);
    recordEvent(ctx, 'client.updated', client, { contacts: before });
    return result;
  });
}

function clientSnapshot(ctx: Ctx, clientId: string): Client {
  return { ...clientCodec.fromRow(clientRow(ctx, clientId)), contacts: contactsOf(ctx, clientId) };
}

export function createContact(ctx: Ctx, clientId: string, input: ContactCreate): Contact {
  return changeContacts(ctx, clientId, () => insertContact(ctx, clientId, input));
}

export function updateContact(ctx: Ctx, clientId: string, contactId: string, patch: ContactUpdate): Contact {
  const before = getContact(ctx, clientId, contactId);
  const after: Contact = { ...before, ...sentFields(patch), updated_at: nowIso(ctx) };
  if (!after.first_name && !after.last_name && !after.email) {
    const message = 'A contact person needs at least one of first_name, last_name or email.';
    throw new ApiError('validation_failed', message, { errors: [{ path: 'first_name', code: 'required', message }] });
  }
  if (!changedAttributes(before, after)) return before;
  return changeContacts(ctx, clientId, () => {
    if (after.is_primary) demoteOtherPrimaries(ctx, clientId, contactId);
    updateRow(ctx.db, 'contacts', codec.toRow(after));
    return after;
  });
}

export function deleteContact(ctx: Ctx, clientId: string, contactId: string): { id: string; deleted: true } {
  getContact(ctx, clientId, contactId);
  return changeContacts(ctx, clientId, () => {
    deleteRow(ctx.db, 'contacts', contactId);
    return { id: contactId, deleted: true as const };
  });
}
