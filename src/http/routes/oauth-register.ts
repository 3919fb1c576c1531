import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ClientRegistrationRequest } from '../../schemas/oauth-registration.js';
import type { Ctx } from '../../services/context.js';
import { OAuthError } from '../../services/oauth-apps.js';
import { registerPublicClient } from '../../services/oauth-registration.js';
import { toApiError } from '../plugins/errors.js';

/** Client metadata is a few hundred bytes; ten long redirect URIs stay under this. */
const REGISTRATION_BODY_LIMIT = 32 * 1024;

/**
 * POST /oauth/register: dynamic client registration (RFC 7591) for MCP clients, without a key
 * (docs/security.md#mcp-clients-that-register-themselves). The app goes to the default account
 * (the one of the sandbox's admin key), as a public client. Errors are RFC 7591's JSON
 * (`invalid_redirect_uri`, `invalid_client_metadata`), which OAuth client libraries understand.
 */
export function oauthRegisterRoutes(fastify: FastifyInstance, ctx: Ctx): void {
  fastify.register(async (scope) => {
    scope.setErrorHandler(async (error: FastifyError, request, reply) => {
      // A 413 is the app's own (it reads the rest of the body first, so the client sees the answer).
      if (!(error instanceof OAuthError) && toApiError(error).code === 'payload_too_large') throw error;
      const failure = error instanceof OAuthError ? error : registrationError(error);
      if (failure.status >= 500) request.log.error({ err: error }, 'client registration failed');
      return reply
        .code(failure.status)
        .headers({ 'cache-control': 'no-store', ...failure.headers })
        .type('application/json; charset=utf-8')
        .send({ error: failure.error, error_description: failure.message });
    });
    scope.withTypeProvider<ZodTypeProvider>().post('/oauth/register', {
      // A web page must not register apps by DNS rebinding or from another origin (plugins/own-origin.ts).
      config: { ownOrigin: true },
      bodyLimit: REGISTRATION_BODY_LIMIT,
      schema: { hide: true, body: ClientRegistrationRequest },
      handler: async (request, reply) => reply.code(201).header('cache-control', 'no-store').send(registerPublicClient(ctx, request.body)),
    });
  });
}

/** A refusal of the body (not JSON, too large, a field wrong) as RFC 7591 §3.2.2 names it. */
function registrationError(error: Error): OAuthError {
  const apiError = toApiError(error);
  if (apiError.status >= 500) return new OAuthError('server_error', 'Something went wrong on our side. Retry later.', apiError.status);
  const redirectUris = apiError.errors?.some((e) => e.path.startsWith('redirect_uris'));
  const status = apiError.code === 'validation_failed' ? 400 : apiError.status;
  return new OAuthError(redirectUris ? 'invalid_redirect_uri' : 'invalid_client_metadata', apiError.message, status);
}
