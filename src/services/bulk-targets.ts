import { ApiError } from '../errors.js';
import type { ClientBulkRecord, DealBulkRecord, LeadBulkRecord } from '../schemas/bulk.js';
import type { Contact, ContactCreate } from '../schemas/client.js';
import { createClient, getClient, insertClients, newClient, updateClient } from './clients.js';
import { contactsOf, createContact, updateContact } from './contacts.js';
import { changedAttributes, sentFields } from './changes.js';
import type { Ctx } from './context.js';
import { inTransaction } from './transactions.js';
import { createDeal, getDeal, updateDeal } from './deals.js';
import { createLead, getLead, insertLeads, newLead, updateLead } from './leads.js';
import type { Lead } from '../schemas/lead.js';
import type { Client } from '../schemas/client.js';
import type { BulkTarget } from './bulk.js';

/**
 * What bulk does with each resource: the same create and update use cases as POST and PATCH, so
 * a bulk write and a single write can never differ in rules or events.
 */
export const leadTarget: BulkTarget<Omit<LeadBulkRecord, 'id'>> = {
  table: 'leads',
  noun: 'lead',
  create: createLead,
  read: getLead,
  update: (ctx, id, record) => void updateLead(ctx, id, record),
  createMany: { build: newLead, insert: (ctx, leads) => insertLeads(ctx, leads as Lead[]) },
};

export const dealTarget: BulkTarget<Omit<DealBulkRecord, 'id'>> = {
  table: 'deals',
  noun: 'deal',
  create: createDeal,
  read: getDeal,
  update(ctx, id, record) {
    // An upsert sets values: a record that repeats its deal's stage (won, as exported) is not a
    // request to win it again, which PATCH refuses with 409; the stage is left as it is.
    const { stage, ...rest } = record;
    updateDeal(ctx, id, stage === getDeal(ctx, id).stage ? rest : record);
  },
};

export const clientTarget: BulkTarget<Omit<ClientBulkRecord, 'id'>> = {
  table: 'clients',
  noun: 'client',
  create: createClient,
  read: (ctx, id) => ({ ...getClient(ctx, id), contacts: contactsOf(ctx, id) }),
  createMany: { build: newClient, insert: (ctx, clients) => insertClients(ctx, clients as Client[]) },
  update(ctx, id, { contacts, ...fields }) {
    // Several writes: one savepoint around them, so a contact that fails undoes the client's change too.
    inTransaction(ctx, () => {
      updateClient(ctx, id, fields);
      if (contacts) mergeContacts(ctx, id, contacts);
    });
  },
};

/**
 * A client record's contacts, on an existing client: each is matched to a contact person by email
 * (case-insensitive), or by first and last name when it has no email; a match is updated with the
 * fields sent, anything else is added. Contact persons the record does not mention are kept:
 * bulk never deletes. Each change emits client.updated, as the contacts endpoints do.
 */
function mergeContacts(ctx: Ctx, clientId: string, contacts: ContactCreate[]): void {
  if (contacts.filter((c) => c.is_primary).length > 1) {
    throw new ApiError('validation_failed', 'At most one contact person can be primary.', {
      errors: [{ path: 'contacts', code: 'too_many_primary', message: 'At most one contact person can be primary.' }],
    });
  }
  let existing = contactsOf(ctx, clientId);
  // Each contact person answers one record: two records with one email (a source may have such
  // twins) match two contacts in order, instead of both rewriting the first one on every run.
  const taken = new Set<string>();
  for (const contact of contacts) {
    const match = existing.find((e) => !taken.has(e.id) && sameContact(e, contact));
    if (match) taken.add(match.id);
    // A rerun sends mostly what is stored: settle that from the contacts in hand, not with the two
    // reads of updateContact (a third of the time of an unchanged client with one contact).
    if (match && !changedAttributes(match, { ...match, ...sentFields(contact) })) continue;
    if (match) updateContact(ctx, clientId, match.id, contact);
    else taken.add(createContact(ctx, clientId, contact).id);
    existing = contactsOf(ctx, clientId); // as written: a new primary demotes the previous one
  }
}

function sameContact(existing: Contact, incoming: ContactCreate): boolean {
  if (incoming.email) return existing.email?.toLowerCase() === incoming.email.toLowerCase();
  return existing.first_name === (incoming.first_name ?? null) && existing.last_name === (incoming.last_name ?? null);
}
