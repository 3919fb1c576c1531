import { randomBytes } from 'node:crypto';
import type { CrmClient } from '../../../client/client.js';
import { CrmApiError } from '../../../client/errors.js';
import type { TriggerableEventType } from '../../../domain/event-types.js';
import type { Event, EventType } from '../../../schemas/event.js';
import { withClient, type GlobalOptions } from '../../api.js';
import { bold, dim, printJson } from '../../output.js';

/**
 * `crm trigger <event-type>`: makes the real API calls that cause an event, as `stripe trigger`
 * does (deal.won creates a deal and wins it), then finds the event they caused.
 */
type Obj = { id: string; created_at: string };
interface Recipe {
  /** What the calls did, for people. */
  story: string;
  run(c: CrmClient): Promise<Obj>;
}

const tag = () => randomBytes(3).toString('hex');
const lead = (c: CrmClient) =>
  c.post<Obj>('/v1/leads', {
    first_name: 'Trigger',
    last_name: `Lead ${tag()}`,
    email: `trigger-${tag()}@example.com`,
    company: 'Triggered Ltd',
    source: 'other',
  });
/** A throwaway text field on leads: the key starts with a letter and is unique per run. */
const field = (c: CrmClient) => c.post<Obj>('/v1/fields', { object: 'lead', key: `triggered_${tag()}`, label: 'Triggered field', type: 'text' });
const client = (c: CrmClient) => c.post<Obj>('/v1/clients', { name: `Triggered Client ${tag()}`, email: `billing-${tag()}@example.com` });
const deal = (c: CrmClient) => c.post<Obj>('/v1/deals', { title: `Triggered deal ${tag()}`, value: 1000, currency: 'EUR', stage: 'proposal' });
const invoice = async (c: CrmClient, send: boolean) => {
  const owner = await client(c);
  return c.post<Obj>('/v1/invoices', { client_id: owner.id, line_items: [{ description: 'Triggered service', quantity: 1, unit_price: 100 }], send });
};
/** Runs `then` on a fresh object and reports the fresh object (its created_at bounds the event search). */
const after = (make: (c: CrmClient) => Promise<Obj>, then: (c: CrmClient, id: string) => Promise<unknown>) => async (c: CrmClient) => {
  const made = await make(c);
  await then(c, made.id);
  return made;
};

const RECIPES: Record<TriggerableEventType, Recipe> = {
  'lead.created': { story: 'created a lead', run: lead },
  'lead.updated': {
    story: 'created a lead and set it contacted',
    run: after(lead, (c, id) => c.request('PATCH', `/v1/leads/${id}`, { body: { status: 'contacted' } })),
  },
  'lead.deleted': { story: 'created a lead and deleted it', run: after(lead, (c, id) => c.request('DELETE', `/v1/leads/${id}`)) },
  'lead.converted': { story: 'created a lead and converted it to a client', run: after(lead, (c, id) => c.post(`/v1/leads/${id}/convert`, {})) },
  'client.created': { story: 'created a client', run: client },
  'client.updated': {
    story: 'created a client and changed its phone',
    run: after(client, (c, id) => c.request('PATCH', `/v1/clients/${id}`, { body: { phone: '+1 555 0100' } })),
  },
  'client.deleted': { story: 'created a client and deleted it', run: after(client, (c, id) => c.request('DELETE', `/v1/clients/${id}`)) },
  'deal.created': { story: 'created a deal', run: deal },
  'deal.updated': {
    story: 'created a deal and moved it to negotiation',
    run: after(deal, (c, id) => c.request('PATCH', `/v1/deals/${id}`, { body: { stage: 'negotiation' } })),
  },
  'deal.won': { story: 'created a deal and won it', run: after(deal, (c, id) => c.post(`/v1/deals/${id}/win`)) },
  'deal.lost': { story: 'created a deal and lost it', run: after(deal, (c, id) => c.post(`/v1/deals/${id}/lose`, { reason: 'triggered' })) },
  'deal.deleted': { story: 'created a deal and deleted it', run: after(deal, (c, id) => c.request('DELETE', `/v1/deals/${id}`)) },
  'field.created': { story: 'created a lead field', run: field },
  'field.updated': {
    story: 'created a lead field and relabelled it',
    run: after(field, (c, id) => c.request('PATCH', `/v1/fields/${id}`, { body: { label: 'Triggered field (renamed)' } })),
  },
  'field.deleted': { story: 'created a lead field and deleted it', run: after(field, (c, id) => c.request('DELETE', `/v1/fields/${id}`)) },
  'invoice.created': { story: 'created a client and a draft invoice', run: (c) => invoice(c, false) },
  'invoice.sent': { story: 'created a client and an invoice, sent at once', run: (c) => invoice(c, true) },
  'invoice.paid': {
    story: 'created and sent an invoice, then paid it',
    run: after(
      (c) => invoice(c, true),
      (c, id) => c.post(`/v1/invoices/${id}/pay`),
    ),
  },
  'invoice.voided': {
    story: 'created and sent an invoice, then voided it',
    run: after(
      (c) => invoice(c, true),
      (c, id) => c.post(`/v1/invoices/${id}/void`),
    ),
  },
};

/**
 * The event the calls caused: of that type, about that object, created at or after the object.
 * The object's own created_at (server time) bounds the search, so client clock skew does not matter.
 */
async function findEvent(c: CrmClient, type: EventType, made: Obj): Promise<Event | undefined> {
  const createdAfter = new Date(Date.parse(made.created_at) - 1).toISOString();
  for await (const page of c.pages<Event>('/v1/events', { type, created_after: createdAfter, limit: 100 })) {
    const found = page.data.find((e) => e.data.object.id === made.id);
    if (found) return found;
  }
  return undefined;
}

export async function triggerCommand(options: GlobalOptions, type: TriggerableEventType): Promise<void> {
  const recipe = RECIPES[type];
  const { made, event } = await withClient(options, async (c) => {
    const made = await recipe.run(c);
    try {
      return { made, event: await findEvent(c, type, made) };
    } catch (error) {
      // Without events:read the calls still did their job; only the event id cannot be shown.
      if (error instanceof CrmApiError && error.status === 403) return { made, event: undefined };
      throw error;
    }
  });
  if (options.json) return printJson({ type, object_id: made.id, event_id: event?.id ?? null });
  process.stdout.write(`${bold('Triggered')} ${type}: ${recipe.story} (${made.id})${event ? ` → ${event.id}` : dim(' (event not readable with this key)')}\n`);
}
