import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiKey, ApiKeyCreate, ApiKeyWithSecret } from '../../schemas/api-key.js';
import { IdParams, listEnvelope, listQueryFields } from '../../schemas/common.js';
import { lazySchema } from '../../schemas/lazy.js';
import { createApiKey, getApiKey, listApiKeys, requireAuthorityOverKey, revokeApiKey } from '../../services/api-keys.js';
import type { Ctx } from '../../services/context.js';
import { z } from 'zod';
import { requireLifetimeWithin, requireScopesToGrant } from '../../services/key-authority.js';
import { respond } from '../plugins/idempotency.js';
import { BEARER, errorResponses } from '../schema-docs.js';

const KeyListQuery = lazySchema(() => z.strictObject({ limit: listQueryFields().limit, cursor: listQueryFields().cursor }));

/** Settings → API: keys are shown once, listed without secrets, revoked at once (docs/reference/access.md#api-keys). */
export function apiKeyRoutes(fastify: FastifyInstance, ctx: Ctx): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['API keys'], security: BEARER };
  app.post('/v1/api_keys', {
    config: {
      scope: 'keys:write',
      // A key can hand out only what it holds itself, for no longer than it lives: no escalation through key creation.
      authorize: (req) => {
        const body = req.body as ApiKeyCreate;
        requireScopesToGrant(req.principal, 'key', body.scopes);
        requireLifetimeWithin(req.principal, body.expires_at);
      },
    },
    schema: {
      ...base,
      summary: 'Create an API key (the secret is shown once)',
      description:
        'The new key may hold only scopes the calling key holds (403 `insufficient_scope` names the one it lacks), and may not outlive it: ' +
        'a caller that expires must give an `expires_at` no later than its own (422 `validation_failed` on `expires_at` names the latest allowed).',
      body: ApiKeyCreate,
      response: { 201: ApiKeyWithSecret, ...errorResponses('validation_failed') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 201, () => createApiKey(ctx, req.body)),
  });
  app.get('/v1/api_keys', {
    config: { scope: 'keys:read' },
    schema: {
      ...base,
      summary: 'List API keys (no secrets)',
      querystring: KeyListQuery,
      response: { 200: listEnvelope(ApiKey), ...errorResponses('invalid_cursor') },
    },
    handler: async (req) => listApiKeys(ctx, req.query),
  });
  app.get('/v1/api_keys/:id', {
    config: { scope: 'keys:read' },
    schema: { ...base, summary: 'Get an API key (no secret)', params: IdParams, response: { 200: ApiKey, ...errorResponses('not_found') } },
    handler: async (req) => getApiKey(ctx, req.params.id),
  });
  app.delete('/v1/api_keys/:id', {
    // Checked here too (revokeApiKey checks it for every caller), so that a replay of another key's revocation is refused alike.
    config: { scope: 'keys:write', authorize: (req) => requireAuthorityOverKey(ctx, req.principal, (req.params as { id: string }).id) },
    schema: {
      ...base,
      summary: 'Revoke an API key, effective on the next request',
      description:
        'Only a key that holds every scope of the key to revoke may revoke it (403 `insufficient_scope` names the one it lacks): `keys:write` alone cannot revoke a `*` key.',
      params: IdParams,
      response: { 200: ApiKey, ...errorResponses('not_found') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => revokeApiKey(ctx, req.params.id, req.principal)),
  });
}
