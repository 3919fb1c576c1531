import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams } from '../../schemas/common.js';
import { Field, FieldCreate, FieldList, FieldListQuery, FieldUpdate } from '../../schemas/field.js';
import type { Ctx } from '../../services/context.js';
import { createField, deleteField, fieldUsage, getField, listFields, updateField } from '../../services/fields.js';
import { respond } from '../plugins/idempotency.js';
import { BEARER, errorResponses } from '../schema-docs.js';

const FieldDeleted = z.object({ id: z.string(), deleted: z.literal(true), values_removed: z.number().int() }).meta({ id: 'FieldDeleted' });
const FieldUsage = z.object({ id: z.string(), records_with_values: z.number().int() }).meta({ id: 'FieldUsage' });

/** /v1/fields: custom field definitions (docs/reference/custom-fields.md). */
export function fieldRoutes(fastify: FastifyInstance, ctx: Ctx): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['Custom fields'], security: BEARER };
  const read = { scope: 'fields:read' };
  const write = { scope: 'fields:write' };
  const path = '/v1/fields';

  app.post(path, {
    config: write,
    schema: {
      ...base,
      summary: 'Define a custom field of leads, clients or deals',
      body: FieldCreate,
      response: { 201: Field, ...errorResponses('malformed_json', 'validation_failed', 'conflict') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 201, () => createField(ctx, req.body)),
  });
  app.get(path, {
    config: read,
    schema: {
      ...base,
      summary: 'List custom fields, by object and position',
      querystring: FieldListQuery,
      response: { 200: FieldList, ...errorResponses('invalid_request', 'invalid_cursor') },
    },
    handler: async (req) => listFields(ctx, req.query),
  });
  app.get(`${path}/:id`, {
    config: read,
    schema: { ...base, summary: 'Get a custom field', params: IdParams, response: { 200: Field, ...errorResponses('not_found') } },
    handler: async (req) => getField(ctx, req.params.id),
  });
  app.get(`${path}/:id/usage`, {
    config: read,
    schema: {
      ...base,
      summary: 'How many records hold a value for the field (what deleting it removes)',
      params: IdParams,
      response: { 200: FieldUsage, ...errorResponses('not_found') },
    },
    handler: async (req) => fieldUsage(ctx, req.params.id),
  });
  app.patch(`${path}/:id`, {
    config: write,
    schema: {
      ...base,
      summary: 'Change a custom field: label, description, required, position, options; some type changes',
      description:
        'Options are the whole list: add and relabel freely; removing one that records hold is 409 naming how many. ' +
        'The type changes only text ↔ long_text and select → multi_select (each value becomes a list of one).',
      params: IdParams,
      body: FieldUpdate,
      response: { 200: Field, ...errorResponses('not_found', 'malformed_json', 'validation_failed', 'conflict') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => updateField(ctx, req.params.id, req.body)),
  });
  app.delete(`${path}/:id`, {
    config: write,
    schema: {
      ...base,
      summary: 'Delete a custom field and its values on every record',
      params: IdParams,
      response: { 200: FieldDeleted, ...errorResponses('not_found') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => deleteField(ctx, req.params.id)),
  });
}
