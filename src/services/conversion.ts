import { ApiError } from '../errors.js';
import type { Client } from '../schemas/client.js';
import type { Deal } from '../schemas/deal.js';
import type { Lead, LeadConvert } from '../schemas/lead.js';
import { createClient, getClient } from './clients.js';
import { fieldError } from '../errors.js';
import type { Ctx } from './context.js';
import { inTransaction } from './transactions.js';
import { createDeal } from './deals.js';
import { recordEvent } from './events.js';
import { getLead, markConverted } from './leads.js';

/**
 * Lead conversion: a client from the lead (a company with the lead as its primary contact, or a
 * person), optionally a deal for it, and the lead marked converted, all in one transaction.
 */
export function convertLead(ctx: Ctx, id: string, input: LeadConvert): { lead: Lead; client: Client; deal: Deal | null } {
  return inTransaction(ctx, () => {
    const lead = getLead(ctx, id);
    if (lead.status === 'converted') {
      throw new ApiError('invalid_transition', `The lead was already converted (client ${lead.converted_client_id}).`);
    }
    const personName = [lead.first_name, lead.last_name].filter(Boolean).join(' ');
    const kind = input.client?.kind ?? (lead.company ? 'company' : 'person');
    const name = input.client?.name || (kind === 'company' ? lead.company : personName) || personName || lead.company || lead.email || 'Unnamed lead';
    const hasPerson = Boolean(lead.first_name || lead.last_name || lead.email);
    const client = input.client_id
      ? existingClient(ctx, input.client_id)
      : createClient(ctx, {
          name,
          kind,
          // A company client gets the person's details on its contact, not as its own.
          email: kind === 'person' ? lead.email : null,
          phone: kind === 'person' ? lead.phone : null,
          external_id: input.client?.external_id ?? null,
          tags: lead.tags,
          contacts:
            kind === 'company' && hasPerson
              ? [{ first_name: lead.first_name, last_name: lead.last_name, email: lead.email, phone: lead.phone, role: lead.title, is_primary: true }]
              : [],
        });
    const deal = input.deal
      ? createDeal(ctx, {
          title: input.deal.title ?? `${client.name} deal`,
          value: input.deal.value,
          currency: input.deal.currency,
          stage: input.deal.stage ?? 'qualified',
          client_id: client.id,
        })
      : null;
    const converted = markConverted(ctx, lead, client.id);
    recordEvent(ctx, 'lead.converted', converted, { status: lead.status, converted_client_id: null });
    return { lead: converted, client, deal };
  });
}

/** `client_id`: the lead joins a client that exists; an unknown id is the caller's field error (422), not a 404 of the lead. */
function existingClient(ctx: Ctx, id: string): Client {
  try {
    return getClient(ctx, id);
  } catch {
    throw fieldError('client_id', 'not_found', `No client with id '${id}'.`);
  }
}
