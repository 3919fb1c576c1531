import { ApiError, notFound } from '../errors.js';
import type { Address, Client, ClientCreate, ClientListQuery, ClientUpdate } from '../schemas/client.js';
import { commonConditions } from '../store/list.js';
import { clientJsonSql, deleteClientRow, findClient, insertClientRows, writeClient } from '../store/clients.js';
import { insertContactRows } from '../store/contacts.js';
import { dealIdsOfClient, findDeal, unlinkDealFromClient } from '../store/deals.js';
import { countInvoicesOfClient } from '../store/invoices.js';
import { listTableJson, type JsonBody } from '../store/list-json.js';
import type { WithCustomFields } from '../domain/custom-field-query.js';
import { customFieldList } from './custom-field-filters.js';
import { contactsOf, newContact } from './contacts.js';
import { sentFields } from './changes.js';
import { valuesForCreate, valuesForUpdate } from './custom-field-values.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';
import { assertExternalIdFree } from './external-ids.js';
import { inTransaction } from './transactions.js';
import { recordEvent, recordEvents, saveUpdate } from './events.js';

const EMPTY_ADDRESS: Address = { line1: null, line2: null, city: null, region: null, postal_code: null, country: null };

export function getClient(ctx: Ctx, id: string): Client {
  const client = findClient(ctx.db, id);
  if (!client) throw notFound('client', id);
  return { ...client, contacts: contactsOf(ctx, id) };
}

export function createClient(ctx: Ctx, input: ClientCreate): Client {
  return inTransaction(ctx, () => {
    const client = newClient(ctx, input);
    assertExternalIdFree(ctx, 'clients', input.external_id);
    insertClients(ctx, [client]);
    return client;
  });
}

/**
 * The client a create makes, with its contact persons, checked against the rules, before anything
 * is written: createClient writes one, and bulk writes a batch of them with insertClients.
 * external_id is the caller's to check.
 */
export function newClient(ctx: Ctx, input: ClientCreate): Client {
  const primaries = (input.contacts ?? []).filter((c) => c.is_primary).length;
  if (primaries > 1) {
    throw new ApiError('validation_failed', 'At most one contact person can be primary.', {
      errors: [{ path: 'contacts', code: 'too_many_primary', message: 'At most one contact person can be primary.' }],
    });
  }
  const now = nowIso(ctx);
  const id = ctx.ids.next('cli');
  const base: Omit<Client, 'contacts'> = {
    id,
    external_id: input.external_id ?? null,
    name: input.name,
    kind: input.kind ?? 'company',
    email: input.email ?? null,
    phone: input.phone ?? null,
    website: input.website ?? null,
    address: { ...EMPTY_ADDRESS, ...input.address },
    tags: input.tags ?? [],
    custom_fields: valuesForCreate(ctx, 'client', input.custom_fields),
    created_at: now,
    updated_at: now,
  };
  // At most one primary, and no other contacts yet: nothing to demote.
  return { ...base, contacts: (input.contacts ?? []).map((c) => newContact(ctx, id, c)) };
}

/** Writes clients made by newClient, with their contact persons and client.created events. */
export function insertClients(ctx: Ctx, clients: Client[]): void {
  insertClientRows(ctx.db, clients);
  insertContactRows(
    ctx.db,
    clients.flatMap((client) => client.contacts),
  );
  recordEvents(ctx, 'client.created', clients);
}

export function updateClient(ctx: Ctx, id: string, patch: ClientUpdate): Client {
  return inTransaction(ctx, () => {
    const before = getClient(ctx, id);
    assertExternalIdFree(ctx, 'clients', patch.external_id, id);
    const { address, ...rest } = sentFields(patch);
    const after: Client = {
      ...before,
      ...rest,
      address: address === undefined ? before.address : { ...(address === null ? EMPTY_ADDRESS : before.address), ...address },
      updated_at: nowIso(ctx),
    };
    if (patch.custom_fields !== undefined) after.custom_fields = valuesForUpdate(ctx, 'client', before.custom_fields, patch.custom_fields);
    return saveUpdate(ctx, 'client.updated', before, after, writeClient);
  });
}

/**
 * Deleting a client deletes its contact persons and unlinks its deals (each emits deal.updated,
 * so sync sees the change). A client with invoices is kept: invoices are financial records.
 */
export function deleteClient(ctx: Ctx, id: string): { id: string; deleted: true } {
  return inTransaction(ctx, () => {
    const client = getClient(ctx, id);
    const invoices = countInvoicesOfClient(ctx.db, id);
    if (invoices > 0) {
      throw new ApiError('conflict', `The client has ${invoices} invoice(s) and cannot be deleted; invoices are kept as financial records.`);
    }
    const dealIds = dealIdsOfClient(ctx.db, id);
    for (const dealId of dealIds) unlinkDeal(ctx, dealId, id);
    deleteClientRow(ctx.db, id);
    recordEvent(ctx, 'client.deleted', client);
    return { id, deleted: true as const };
  });
}

function unlinkDeal(ctx: Ctx, dealId: string, clientId: string): void {
  unlinkDealFromClient(ctx.db, dealId, nowIso(ctx));
  const deal = findDeal(ctx.db, dealId)!;
  recordEvent(ctx, 'deal.updated', deal, { client_id: clientId });
}

/** A page of clients with their contact persons, as JSON text made by SQLite (store/list-json.ts). */
export function listClients(ctx: Ctx, q: WithCustomFields<ClientListQuery>): JsonBody {
  return listTableJson(ctx.db, ctx.cursorSecret, 'clients', q, commonConditions(q), clientJsonSql(ctx.db), [], customFieldList(ctx, 'client', q));
}
