import type { Client } from '../../schemas/client.js';
import type { Deal } from '../../schemas/deal.js';
import type { Invoice } from '../../schemas/invoice.js';
import type { Lead } from '../../schemas/lead.js';
import type { CopyResource } from '../mask/rules.js';

/**
 * A source record as the body the target is sent: the create fields only (ids, times, numbers and
 * derived fields are the target's own), `external_id` = the source record's id (how a rerun finds
 * it), and every reference rewritten to the target's id of the record it points at. A reference
 * that has no target record yet is reported, not sent dangling.
 */
export type SourceRecord = Record<string, unknown> & { id: string; updated_at: string };
export type TargetIds = (resource: CopyResource, sourceId: string) => string | undefined;

export class MissingReference extends Error {
  constructor(
    readonly resource: CopyResource,
    readonly sourceId: string,
  ) {
    super(
      `It refers to ${resource.slice(0, -1)} ${sourceId}, which is not in the target (not copied, or failed). Copy it too (drop --resources), or see its failure.`,
    );
  }
}

/** The records each record points at, by resource: what a subset must also take (closure). */
export function referencesOf(resource: CopyResource, record: SourceRecord): [CopyResource, string][] {
  const refs: [CopyResource, string][] = [];
  const add = (to: CopyResource, id: unknown) => void (typeof id === 'string' && id && refs.push([to, id]));
  if (resource === 'leads') add('clients', record.converted_client_id);
  if (resource === 'deals') add('clients', record.client_id);
  if (resource === 'invoices') {
    add('clients', record.client_id);
    add('deals', record.deal_id);
  }
  return refs;
}

const ref = (ids: TargetIds, resource: CopyResource, id: string | null | undefined): string | null => {
  if (!id) return null;
  const found = ids(resource, id);
  if (!found) throw new MissingReference(resource, id);
  return found;
};

function clientBody(c: Client): Record<string, unknown> {
  return {
    external_id: c.id,
    name: c.name,
    kind: c.kind,
    email: c.email,
    phone: c.phone,
    website: c.website,
    address: c.address && Object.values(c.address).some((v) => v !== null) ? { ...c.address } : null,
    tags: c.tags,
    custom_fields: { ...c.custom_fields },
    contacts: (c.contacts ?? []).map((p) => ({
      first_name: p.first_name,
      last_name: p.last_name,
      email: p.email,
      phone: p.phone,
      role: p.role,
      is_primary: p.is_primary,
    })),
  };
}

/**
 * A converted lead goes without `status`: it becomes converted by POST /v1/leads/{id}/convert into
 * its (copied) client, the one way the API makes a lead converted; a rerun then leaves it alone.
 */
function leadBody(l: Lead): Record<string, unknown> {
  return {
    external_id: l.id,
    first_name: l.first_name,
    last_name: l.last_name,
    email: l.email,
    phone: l.phone,
    company: l.company,
    title: l.title,
    source: l.source,
    ...(l.status === 'converted' ? {} : { status: l.status }),
    notes: l.notes,
    tags: l.tags,
    custom_fields: { ...l.custom_fields },
  };
}

function dealBody(d: Deal, ids: TargetIds): Record<string, unknown> {
  return {
    external_id: d.id,
    title: d.title,
    value: d.value,
    currency: d.currency,
    stage: d.stage,
    win_probability: d.win_probability,
    client_id: ref(ids, 'clients', d.client_id),
    expected_close_date: d.expected_close_date,
    lost_reason: d.lost_reason,
    tags: d.tags,
    custom_fields: { ...d.custom_fields },
  };
}

/** The fields of an invoice a draft can be given; its state is reached by transitions (invoices.ts). */
export function invoiceBody(i: Invoice, ids: TargetIds): Record<string, unknown> {
  return {
    external_id: i.id,
    client_id: ref(ids, 'clients', i.client_id),
    deal_id: ref(ids, 'deals', i.deal_id),
    recipient_email: i.recipient_email,
    currency: i.currency,
    line_items: i.line_items.map((li) => ({ description: li.description, quantity: li.quantity, unit_price: li.unit_price })),
    due_date: i.due_date,
  };
}

export function bodyOf(resource: CopyResource, record: SourceRecord, ids: TargetIds): Record<string, unknown> {
  switch (resource) {
    case 'clients':
      return clientBody(record as unknown as Client);
    case 'leads':
      return leadBody(record as unknown as Lead);
    case 'deals':
      return dealBody(record as unknown as Deal, ids);
    case 'invoices':
      return invoiceBody(record as unknown as Invoice, ids);
  }
}
