import { checkBulkSize } from '../../accounts/plan-guards.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { BulkResponse, ClientBulkRequest, DealBulkRequest, LeadBulkRequest, type BulkRequest } from '../../schemas/bulk.js';
import { runBulk, type BulkTarget, type Matchable } from '../../services/bulk.js';
import { clientTarget, dealTarget, leadTarget } from '../../services/bulk-targets.js';
import type { Ctx } from '../../services/context.js';
import { respond } from '../plugins/idempotency.js';
import { BEARER, errorResponses } from '../schema-docs.js';

const DESCRIPTION = `Creates or updates up to 1000 records in one transaction.
Each record is validated with the resource's create schema and fails on its own (status \`failed\` with
an \`error\`); the others are written. In \`upsert\` mode a record with \`id\` updates that record; otherwise
it is matched on \`match_on\` (\`email\` is case-insensitive; two records with that email fail the record
with \`conflict\`); a record without a match key is created. Records apply in order, so a later record
with the same key as an earlier one updates it. \`unchanged\` means nothing was written and no event
emitted. An Idempotency-Key covers the whole batch; the call counts as one request for rate limits.
With \`dry_run: true\` the same checks run and nothing is written: no events, no idempotency
record; each result has the status it would have, \`updated\` ones the \`changes\` they would make.`;

function bulkRoute<R extends Matchable>(
  fastify: FastifyInstance,
  ctx: Ctx,
  resource: 'leads' | 'clients' | 'deals',
  tag: string,
  body: z.ZodType<BulkRequest<R>, unknown>,
  target: BulkTarget<Omit<R, 'id'>>,
): void {
  fastify.withTypeProvider<ZodTypeProvider>().post(`/v1/${resource}/bulk`, {
    config: { scope: `${resource}:write` },
    schema: {
      tags: [tag],
      security: BEARER,
      summary: `Create or update ${resource} in bulk`,
      description: DESCRIPTION,
      body,
      response: { 200: BulkResponse, ...errorResponses('malformed_json', 'validation_failed', 'payload_too_large', 'plan_limit') },
    },
    preHandler: async (req) => checkBulkSize(req.body.records.length),
    // A dry run writes nothing, so it stores no idempotency record either: the claim is released.
    handler: async (req, reply) =>
      req.body.dry_run ? reply.code(200).send(runBulk(ctx, target, req.body)) : respond(ctx, req, reply, 200, () => runBulk(ctx, target, req.body)),
  });
}

export function bulkRoutes(app: FastifyInstance, ctx: Ctx): void {
  bulkRoute(app, ctx, 'leads', 'Leads', LeadBulkRequest, leadTarget);
  bulkRoute(app, ctx, 'clients', 'Clients', ClientBulkRequest, clientTarget);
  bulkRoute(app, ctx, 'deals', 'Deals', DealBulkRequest, dealTarget);
}
