import { checkWebhookEndpointRoom } from '../../accounts/plan-guards.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams } from '../../schemas/common.js';
import {
  WebhookDeliveryList,
  WebhookDeliveryListQuery,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointListQuery,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
  WebhookRecover,
  WebhookRecoverResult,
  WebhookSecretRotate,
} from '../../schemas/webhook.js';
import type { Ctx } from '../../services/context.js';
import { listDeliveries, recoverDeliveries } from '../../services/webhook-deliveries.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from '../../services/webhook-endpoints.js';
import { respond } from '../plugins/idempotency.js';
import { BEARER, Deleted, errorResponses } from '../schema-docs.js';

/** /v1/webhook_endpoints: endpoints, secret rotation, delivery attempts and recovery (docs/reference/events.md#webhooks). */
export function webhookRoutes(fastify: FastifyInstance, ctx: Ctx): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['Webhooks'], security: BEARER };
  const read = { scope: 'webhooks:read' };
  const write = { scope: 'webhooks:write' };
  const path = '/v1/webhook_endpoints';

  app.post(path, {
    config: write,
    schema: {
      ...base,
      summary: 'Create a webhook endpoint (its secret is shown once)',
      body: WebhookEndpointCreate,
      response: { 201: WebhookEndpointWithSecret, ...errorResponses('malformed_json', 'validation_failed', 'plan_limit') },
    },
    preHandler: async () => checkWebhookEndpointRoom(),
    handler: async (req, reply) => respond(ctx, req, reply, 201, () => createWebhookEndpoint(ctx, req.body)),
  });
  app.get(path, {
    config: read,
    schema: {
      ...base,
      summary: 'List webhook endpoints',
      querystring: WebhookEndpointListQuery,
      response: { 200: WebhookEndpointList, ...errorResponses('invalid_request', 'invalid_cursor') },
    },
    handler: async (req) => listWebhookEndpoints(ctx, req.query),
  });
  app.get(`${path}/:id`, {
    config: read,
    schema: { ...base, summary: 'Get a webhook endpoint (no secret)', params: IdParams, response: { 200: WebhookEndpoint, ...errorResponses('not_found') } },
    handler: async (req) => getWebhookEndpoint(ctx, req.params.id),
  });
  app.patch(`${path}/:id`, {
    config: write,
    schema: {
      ...base,
      summary: 'Update a webhook endpoint',
      description: 'Disabling holds its pending deliveries; enabling again sends them.',
      params: IdParams,
      body: WebhookEndpointUpdate,
      response: { 200: WebhookEndpoint, ...errorResponses('not_found', 'malformed_json', 'validation_failed') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => updateWebhookEndpoint(ctx, req.params.id, req.body)),
  });
  app.delete(`${path}/:id`, {
    config: write,
    schema: {
      ...base,
      summary: 'Delete a webhook endpoint and its delivery history',
      params: IdParams,
      response: { 200: Deleted, ...errorResponses('not_found') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => deleteWebhookEndpoint(ctx, req.params.id)),
  });
  app.post(`${path}/:id/rotate_secret`, {
    config: write,
    schema: {
      ...base,
      summary: 'Rotate the signing secret (the new one is shown once)',
      description:
        'For 24 h deliveries carry two signatures, by the new secret and by the old one, so receivers can switch without missing one; with `expire_old: true` (a leaked secret) the old one stops signing at once.',
      params: IdParams,
      body: WebhookSecretRotate.optional(),
      response: { 200: WebhookEndpointWithSecret, ...errorResponses('not_found') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => rotateWebhookSecret(ctx, req.params.id, req.body?.expire_old)),
  });
  app.get(`${path}/:id/deliveries`, {
    config: read,
    schema: {
      ...base,
      summary: 'List delivery attempts to this endpoint, oldest first',
      params: IdParams,
      querystring: WebhookDeliveryListQuery,
      response: { 200: WebhookDeliveryList, ...errorResponses('not_found', 'invalid_request', 'invalid_cursor') },
    },
    handler: async (req) => listDeliveries(ctx, req.params.id, req.query),
  });
  app.post(`${path}/:id/recover`, {
    config: write,
    schema: {
      ...base,
      summary: 'Re-queue deliveries that failed for good since a time',
      params: IdParams,
      body: WebhookRecover,
      response: { 202: WebhookRecoverResult, ...errorResponses('not_found', 'malformed_json', 'validation_failed') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 202, () => recoverDeliveries(ctx, req.params.id, req.body.since)),
  });
}
