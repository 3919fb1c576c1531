import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams } from '../../schemas/common.js';
import { Client } from '../../schemas/client.js';
import { Deal } from '../../schemas/deal.js';
import { lazySchema } from '../../schemas/lazy.js';
import { Lead, LeadConvert, LeadCreate, LeadList, LeadListQuery, LeadUpdate } from '../../schemas/lead.js';
import type { Ctx } from '../../services/context.js';
import { convertLead } from '../../services/conversion.js';
import { createLead, deleteLead, getLead, listLeads, updateLead } from '../../services/leads.js';
import { requireScopes } from '../plugins/auth.js';
import { respond } from '../plugins/idempotency.js';
import { BEARER, errorResponses } from '../schema-docs.js';
import { crudRoutes } from './crud.js';

const Conversion = lazySchema(() => z.object({ lead: Lead.unwrap(), client: Client.unwrap(), deal: Deal.unwrap().nullable() }).meta({ id: 'LeadConversion' }));

export function leadRoutes(app: FastifyInstance, ctx: Ctx): void {
  crudRoutes(app, ctx, {
    path: '/v1/leads',
    tag: 'Leads',
    noun: 'lead',
    scope: 'leads',
    schemas: { create: LeadCreate, update: LeadUpdate, query: LeadListQuery, item: Lead, list: LeadList },
    customFields: true,
    ops: { create: createLead, list: listLeads, get: getLead, update: updateLead, remove: deleteLead },
  });

  app.withTypeProvider<ZodTypeProvider>().post('/v1/leads/:id/convert', {
    config: {
      scope: 'clients:write',
      authorize: (req) => requireScopes(req.principal, ['leads:write', ...((req.body as LeadConvert | undefined)?.deal ? ['deals:write'] : [])]),
    },
    schema: {
      tags: ['Leads'],
      security: BEARER,
      summary: 'Convert a lead into a client (and optionally a deal)',
      description: 'Needs leads:write, clients:write and, with `deal`, deals:write.',
      params: IdParams,
      body: LeadConvert.optional(),
      response: { 201: Conversion, ...errorResponses('not_found', 'validation_failed', 'invalid_transition', 'conflict') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 201, () => convertLead(ctx, req.params.id, req.body ?? {})),
  });
}
