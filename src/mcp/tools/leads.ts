import { z } from 'zod';
import { Client } from '../../schemas/client.js';
import { Deal } from '../../schemas/deal.js';
import { Lead, LeadConvert, LeadCreate, LeadListQuery, LeadUpdate } from '../../schemas/lead.js';
import type { McpBackend } from '../backend.js';
import { type CrmTool, Deleted, pageOf, pathId, toolsOf } from '../tool-kit.js';

const Id = z.object({ id: z.string().describe('The lead id (lead_…)') });

export function leadTools(api: McpBackend): CrmTool[] {
  const tool = toolsOf('leads');
  return [
    tool({
      name: 'list_leads',
      title: 'List leads',
      description:
        'Lists leads, oldest first (order=desc: newest first; sort by name, company, email or updated_at), filtered by status, source, email, tag or external_id, or found by words of the name, email or company (q). Pass next_cursor as cursor for the next page.',
      kind: 'read',
      input: LeadListQuery.unwrap(),
      output: pageOf(Lead.unwrap()),
      run: (q) => api.call('GET', '/v1/leads', { query: q }),
    }),
    tool({
      name: 'get_lead',
      title: 'Get a lead',
      description: 'Gets one lead by id.',
      kind: 'read',
      input: Id,
      output: Lead.unwrap(),
      run: ({ id }) => api.call('GET', `/v1/leads/${pathId(id)}`),
    }),
    tool({
      name: 'create_lead',
      title: 'Create a lead',
      description: 'Creates a lead. Needs at least one of first_name, last_name, email or company.',
      kind: 'create',
      input: LeadCreate.unwrap(),
      output: Lead.unwrap(),
      run: ({ idempotency_key, ...body }: { idempotency_key?: string }) => api.call('POST', '/v1/leads', { body, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'update_lead',
      title: 'Update a lead',
      description: 'Changes the given fields of a lead; fields not given stay as they are, null clears one. Conversion is a separate tool.',
      kind: 'update',
      input: z.object({ ...Id.shape, ...LeadUpdate.unwrap().shape }),
      output: Lead.unwrap(),
      run: ({ id, idempotency_key, ...body }: { id: string; idempotency_key?: string }) =>
        api.call('PATCH', `/v1/leads/${pathId(id)}`, { body, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'delete_lead',
      title: 'Delete a lead',
      description: 'Deletes a lead for good.',
      kind: 'destroy',
      input: Id,
      output: Deleted,
      run: ({ id, idempotency_key }: { id: string; idempotency_key?: string }) =>
        api.call('DELETE', `/v1/leads/${pathId(id)}`, { idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'convert_lead',
      title: 'Convert a lead',
      description:
        'Turns a lead into a client (a company with the lead as primary contact, or a person) and marks it converted; with `deal`, also opens a deal for the new client.',
      kind: 'create',
      input: z.object({ ...Id.shape, ...LeadConvert.unwrap().shape }),
      output: z.object({ lead: Lead.unwrap(), client: Client.unwrap(), deal: Deal.unwrap().nullable() }),
      run: ({ id, idempotency_key, ...body }: { id: string; idempotency_key?: string }) =>
        api.call('POST', `/v1/leads/${pathId(id)}/convert`, { body, idempotencyKey: idempotency_key }),
    }),
  ];
}
