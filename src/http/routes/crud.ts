import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { type CustomFieldQuery, takeCustomFieldParams, withCustomFields } from '../../domain/custom-field-query.js';
import type { Ctx } from '../../services/context.js';
import { IdParams } from '../../schemas/common.js';
import { JsonBody } from '../../store/list-json.js';
import { respond } from '../plugins/idempotency.js';
import { BEARER, Deleted, errorResponses } from '../schema-docs.js';

/**
 * The five routes every resource has (docs/reference/basics.md#resources-and-operations), from its schemas and its service functions:
 * POST /x, GET /x, GET /x/{id}, PATCH /x/{id}, and DELETE /x/{id} where the resource allows it.
 */
export interface CrudSpec<C extends z.ZodType, U extends z.ZodType, Q extends z.ZodType> {
  path: string;
  tag: string;
  noun: string;
  scope: string;
  schemas: { create: C; update: U; query: Q; item: z.ZodType; list: z.ZodType };
  /** The list takes filters and a sort by custom fields (`custom_fields.<key>=…`, `sort=custom_fields.<key>`). */
  customFields?: boolean;
  ops: {
    create(ctx: Ctx, body: z.output<C>): unknown;
    /** The page, or its JSON already made (JsonBody). */
    list(ctx: Ctx, query: z.output<Q>): unknown;
    get(ctx: Ctx, id: string): unknown;
    update(ctx: Ctx, id: string, body: z.output<U>): unknown;
    remove?(ctx: Ctx, id: string): { id: string; deleted: true };
  };
}

/**
 * The custom field parameters of a list request, taken out of its query before the list's strict
 * schema checks the rest (domain/custom-field-query.ts), and put back for the service.
 */
const customFieldQueries = new WeakMap<FastifyRequest, CustomFieldQuery>();

async function takeCustomFields(req: FastifyRequest): Promise<void> {
  const { rest, custom } = takeCustomFieldParams(req.query as Record<string, unknown>);
  req.query = rest;
  customFieldQueries.set(req, custom);
}

/** A page that is JSON already (store/list-json.ts) goes out as its bytes, unserialised. */
export const sendJsonBody = (reply: FastifyReply, body: JsonBody): FastifyReply => reply.type('application/json; charset=utf-8').send(body.bytes);

export function crudRoutes<C extends z.ZodType, U extends z.ZodType, Q extends z.ZodType>(fastify: FastifyInstance, ctx: Ctx, spec: CrudSpec<C, U, Q>): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { path, tag, noun, scope, schemas, ops } = spec;
  const read = { scope: `${scope}:read` };
  const write = { scope: `${scope}:write` };
  const base = { tags: [tag], security: BEARER };

  app.post(path, {
    config: write,
    schema: {
      ...base,
      summary: `Create a ${noun}`,
      body: schemas.create,
      response: { 201: schemas.item, ...errorResponses('malformed_json', 'validation_failed', 'conflict') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 201, () => ops.create(ctx, req.body as z.output<C>)),
  });

  app.get(path, {
    config: read,
    ...(spec.customFields ? { preValidation: takeCustomFields } : {}),
    schema: {
      ...base,
      summary: `List ${noun}s`,
      querystring: schemas.query,
      response: { 200: schemas.list, ...errorResponses('invalid_request', 'invalid_cursor') },
    },
    handler: async (req, reply) => {
      const custom = customFieldQueries.get(req);
      const query = req.query as z.output<Q> & { sort: string };
      const page = ops.list(ctx, custom ? (withCustomFields(query, custom) as z.output<Q>) : query);
      // A page that is JSON already (leads, clients: store/list-json.ts) goes out as its bytes.
      return page instanceof JsonBody ? sendJsonBody(reply, page) : page;
    },
  });

  app.get(`${path}/:id`, {
    config: read,
    schema: { ...base, summary: `Get a ${noun}`, params: IdParams, response: { 200: schemas.item, ...errorResponses('not_found') } },
    handler: async (req) => ops.get(ctx, req.params.id),
  });

  app.patch(`${path}/:id`, {
    config: write,
    schema: {
      ...base,
      summary: `Update a ${noun}`,
      description: 'Partial update: only the fields sent change. A change that changes nothing is not written and emits no event.',
      params: IdParams,
      body: schemas.update,
      response: { 200: schemas.item, ...errorResponses('not_found', 'malformed_json', 'validation_failed', 'conflict', 'invalid_transition') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => ops.update(ctx, req.params.id, req.body as z.output<U>)),
  });

  const remove = ops.remove;
  if (remove) {
    app.delete(`${path}/:id`, {
      config: write,
      schema: { ...base, summary: `Delete a ${noun}`, params: IdParams, response: { 200: Deleted, ...errorResponses('not_found', 'conflict') } },
      handler: async (req, reply) => respond(ctx, req, reply, 200, () => remove(ctx, req.params.id)),
    });
  }
}
