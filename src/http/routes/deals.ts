import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAGES, STAGE_NAMES, STAGE_PROBABILITY, isClosed } from '../../domain/pipeline.js';
import { IdParams } from '../../schemas/common.js';
import { Deal, DealCreate, DealList, DealListQuery, DealLose, DealReopen, DealSummary, DealSummaryQuery, DealUpdate, Pipeline } from '../../schemas/deal.js';
import type { Ctx } from '../../services/context.js';
import { createDeal, deleteDeal, getDeal, listDeals, loseDeal, reopenDeal, summarizeDeals, updateDeal, winDeal } from '../../services/deals.js';
import { listEnvelope } from '../../schemas/common.js';
import { respond } from '../plugins/idempotency.js';
import { BEARER, errorResponses } from '../schema-docs.js';
import { crudRoutes } from './crud.js';

const PIPELINES = {
  data: [
    {
      id: 'default',
      name: 'Sales pipeline',
      stages: STAGES.map((id, position) => ({ id, name: STAGE_NAMES[id], position, win_probability: STAGE_PROBABILITY[id], closed: isClosed(id) })),
    },
  ],
  next_cursor: null,
};

export function dealRoutes(fastify: FastifyInstance, ctx: Ctx): void {
  crudRoutes(fastify, ctx, {
    path: '/v1/deals',
    tag: 'Deals',
    noun: 'deal',
    scope: 'deals',
    schemas: { create: DealCreate, update: DealUpdate, query: DealListQuery, item: Deal, list: DealList },
    customFields: true,
    ops: { create: createDeal, list: listDeals, get: getDeal, update: updateDeal, remove: deleteDeal },
  });

  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['Deals'], security: BEARER };
  const write = { scope: 'deals:write' };
  const actionErrors = errorResponses('not_found', 'invalid_transition', 'validation_failed');

  app.get('/v1/pipelines', {
    config: { scope: 'deals:read' },
    schema: { ...base, summary: 'List pipelines and their stages', response: { 200: listEnvelope(Pipeline), ...errorResponses() } },
    handler: async () => PIPELINES,
  });
  app.get('/v1/deals/summary', {
    config: { scope: 'deals:read' },
    schema: {
      ...base,
      summary: 'Summarize the pipeline',
      description:
        "Each stage's count of deals and their value per currency, for the deals a list with the same filters returns. A board's column heads, without fetching every deal.",
      querystring: DealSummaryQuery,
      response: { 200: DealSummary, ...errorResponses('invalid_request') },
    },
    handler: async (req) => summarizeDeals(ctx, req.query),
  });
  app.post('/v1/deals/:id/win', {
    config: write,
    schema: {
      ...base,
      summary: 'Mark a deal won',
      description: 'From any open stage; emits deal.won once.',
      params: IdParams,
      response: { 200: Deal, ...actionErrors },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => winDeal(ctx, req.params.id)),
  });
  app.post('/v1/deals/:id/lose', {
    config: write,
    schema: { ...base, summary: 'Mark a deal lost', params: IdParams, body: DealLose.optional(), response: { 200: Deal, ...actionErrors } },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => loseDeal(ctx, req.params.id, req.body?.reason)),
  });
  app.post('/v1/deals/:id/reopen', {
    config: write,
    schema: { ...base, summary: 'Reopen a won or lost deal into an open stage', params: IdParams, body: DealReopen, response: { 200: Deal, ...actionErrors } },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => reopenDeal(ctx, req.params.id, req.body.stage)),
  });
}
