import { ApiError, notFound } from '../errors.js';
import type { Client, Contact, ContactCreate, ContactUpdate } from '../schemas/client.js';
import { findClient, touchClient } from '../store/clients.js';
import {
  contactFromRow,
  contactsOfClient,
  deleteContactRow,
  demoteOtherPrimaryContacts,
  findContact,
  insertContactRow,
  writeContact,
} from '../store/contacts.js';
import { listTable } from '../store/list.js';
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
export function contactsOf(ctx: Ctx, clientId: string): Contact[] {
  return contactsOfClient(ctx.db, clientId);
}

/** Only one primary per client: making a contact primary demotes the previous one. */
function demoteOtherPrimaries(ctx: Ctx, clientId: string, exceptId: string): void {
  demoteOtherPrimaryContacts(ctx.db, clientId, exceptId, nowIso(ctx));
}

function insertContact(ctx: Ctx, clientId: string, input: ContactCreate): Contact {
  const contact = newContact(ctx, clientId, input);
  if (contact.is_primary) demoteOtherPrimaries(ctx, clientId, contact.id);
  insertContactRow(ctx.db, contact);
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

function clientRow(ctx: Ctx, clientId: string): Omit<Client, 'contacts'> {
  const client = findClient(ctx.db, clientId);
  if (!client) throw notFound('client', clientId);
  return client;
}

export function getContact(ctx: Ctx, clientId: string, contactId: string): Contact {
  clientRow(ctx, clientId);
  const contact = findContact(ctx.db, contactId);
  if (!contact || contact.client_id !== clientId) throw notFound('contact person', contactId);
  return contact;
}

export function listContacts(ctx: Ctx, clientId: string, q: { limit: number; cursor?: string | undefined }) {
  clientRow(ctx, clientId);
  return listTable(ctx.db, ctx.cursorSecret, 'contacts', { ...q, client_id: clientId }, [['client_id = ?', [clientId]]], (rows) => rows.map(contactFromRow));
}

/** Runs a contact change and reports it on the client, with the contacts as they were. */
function changeContacts<T>(ctx: Ctx, clientId: string, change: () => T): T {
  return inTransaction(ctx, () => {
    clientRow(ctx, clientId);
    const before = contactsOf(ctx, clientId);
    const result = change();
    const now = nowIso(ctx);
    touchClient(ctx.db, clientId, now);
    const client = clientSnapshot(ctx, clientId);
    recordEvent(ctx, 'client.updated', client, { contacts: before });
    return result;
  });
}

function clientSnapshot(ctx: Ctx, clientId: string): Client {
  return { ...clientRow(ctx, clientId), contacts: contactsOf(ctx, clientId) };
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
    writeContact(ctx.db, after);
    return after;
  });
}

export function deleteContact(ctx: Ctx, clientId: string, contactId: string): { id: string; deleted: true } {
  getContact(ctx, clientId, contactId);
  return changeContacts(ctx, clientId, () => {
    deleteContactRow(ctx.db, contactId);
    return { id: contactId, deleted: true as const };
  });
}
