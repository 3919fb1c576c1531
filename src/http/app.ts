import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { z } from 'zod';
import { parserFor } from '../schemas/compiled.js';
import { newId } from '../domain/ids.js';
import type { Ctx } from '../services/context.js';
import { VERSION } from '../version.js';
import { routeHeadAsGet } from './head-as-get.js';
import { registerJsonBody } from './json-body.js';
import { openApiTransforms } from './openapi-transforms.js';
import { bearerToken, registerAuth } from './plugins/auth.js';
import { FailedAuthentications } from './failed-authentications.js';
import { registerRateLimit } from './plugins/rate-limit.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling, validationError } from './plugins/errors.js';
import { accountDocument } from './account-openapi.js';
import { ApiError } from '../errors.js';
import { authenticateBearer } from './credential.js';
import { enterAccountOfBearer } from '../accounts/credentials.js';
import { listFields } from '../services/fields.js';
import { registerIdempotency, settleFailure } from './plugins/idempotency.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { oauthRoutes } from './routes/oauth.js';
import { oauthRegisterRoutes } from './routes/oauth-register.js';
import { protectedResourceRoutes } from './routes/protected-resource.js';
import { clientRoutes } from './routes/clients.js';
import { dealRoutes } from './routes/deals.js';
import { invoiceRoutes } from './routes/invoices.js';
import { leadRoutes } from './routes/leads.js';
import { bulkRoutes } from './routes/bulk.js';
import { sandboxRoutes, type SandboxControl } from './routes/sandbox.js';
import { usageRoutes } from './routes/usage.js';
import { mcpRoutes } from './routes/mcp.js';
import { fieldRoutes } from './routes/fields.js';
import { assistantRoutes } from './routes/assistant.js';
import type { AssistantConfig } from '../assistant/config.js';
import { eventRoutes } from './routes/events.js';
import { eventStreamRoutes } from './routes/event-stream.js';
import { webhookRoutes } from './routes/webhooks.js';
import { dashboardRoutes, registerDashboardGuards } from './routes/dashboard.js';
import { dashboardStreamRoutes } from './routes/dashboard-stream.js';
import { apiReferenceRoutes } from './routes/api-reference.js';
import { accountRoutes } from './routes/accounts.js';
import { requestLogRoutes } from './routes/request-logs.js';
import { registerRequestLog } from './plugins/request-log.js';
import { registerUsageMetering } from './plugins/usage.js';
import { registerFaults } from './plugins/faults.js';
import { registerOwnOriginGuard } from './plugins/own-origin.js';
import type { AccountRegistry } from '../accounts/registry.js';
import { currentAccountOr, runInAccountScope, scopedContext } from '../accounts/current.js';

/** The body limit of routes that need a credential (docs/reference/basics.md#requests-and-responses), which is checked before the body is read. */
const BODY_LIMIT = 10 * 1024 * 1024;
/**
 * The body limit of routes anyone can call (sign-in, OAuth, the payment page): their bodies are
 * read before anyone is known, so three 8 MB bodies from anyone must not stall the sandbox (docs/security.md#bodies).
 */
const PUBLIC_BODY_LIMIT = 64 * 1024;

export interface AppOptions {
  /** The sandbox's accounts: each request works on the one its credential belongs to. */
  accounts: AccountRegistry;
  control: SandboxControl;
  /** Log level for Fastify's logger (to stderr); errors only by default. */
  logLevel?: string;
  /** The server to serve on (the sandbox's, bound before the app is built); Fastify makes one without it. */
  serverFactory?: FastifyServerOptions['serverFactory'];
  /** The built-in assistant's model provider; without it the assistant says how to set one. */
  assistant?: AssistantConfig;
}

/** How many times a request part's schema is parsed by zod's interpreter before its compiled code (validator below). */
const INTERPRETED_PARSES = 20;
const INTERPRETED = { jitless: true } as const;

function unusedCompilerFactory(): never {
  throw new Error('Fastify asked for a default schema compiler: setValidatorCompiler/setSerializerCompiler must come first.');
}

/**
 * Builds the sandbox's HTTP app without listening, so tests can use inject() and server.ts
 * decides about ports and signals.
 */
export async function buildApp({ accounts, control, logLevel = 'error', serverFactory, assistant }: AppOptions): Promise<FastifyInstance> {
  // Routes and services take this Ctx; its fields are those of the account the request works on.
  const current = () => currentAccountOr(() => accounts.default);
  const ctx = scopedContext(current);
  const app = Fastify({
    logger: logLevel === 'silent' ? false : { level: logLevel, stream: process.stderr },
    bodyLimit: PUBLIC_BODY_LIMIT, // BODY_LIMIT on routes with a scope (the onRoute hook below)
    genReqId: () => newId('req'),
    requestIdHeader: false,
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    exposeHeadRoutes: false, // HEAD is routed to the GET route instead (head-as-get.ts)
    rewriteUrl: routeHeadAsGet,
    ...(serverFactory ? { serverFactory } : {}),
    // The compilers are set below; without factories of our own, Fastify would load its defaults
    // (Ajv and fast-json-stringify, ~100 ms of every sandbox start) only to never use them.
    schemaController: { compilersFactory: { buildValidator: unusedCompilerFactory, buildSerializer: unusedCompilerFactory } },
  });

  app.addHook('onRoute', (route) => {
    if (route.config?.scope) route.bodyLimit ??= BODY_LIMIT;
  });

  // JSON in (docs/reference/basics.md#requests-and-responses): Fastify's built-in text/plain parser would hand a string body to the
  // validator (422); without it, a text/plain body is 415 unsupported_media_type like any other.
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);

  // zod validates every request part; query and path problems are 400, body problems 422.
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const documented = schema as z.ZodType;
    let compiled: z.ZodType | undefined;
    let parses = 0;
    return (data) => {
      // Fastify hands a missing body to the validator as null; zod's optional() (e.g. POST /lose) means undefined.
      const input = httpPart === 'body' && data === null ? undefined : data;
      // A route's first parses by zod's interpreter: generated code costs more to make than it saves
      // a route asked a few times (a start's first answer, a test). zod writes an object's fast path
      // on its first parse otherwise (~1.6 ms for a list query), and a bulk body's compiled twin
      // (schemas/compiled.ts) takes ~14 ms to make; both pay from the 21st request on.
      const result = ++parses <= INTERPRETED_PARSES ? documented.safeParse(input, INTERPRETED) : (compiled ??= parserFor(documented)).safeParse(input);
      return result.success ? { value: result.data } : { error: validationError(result.error, httpPart) };
    };
  });
  // Responses are serialised as they are: the OpenAPI document describes them, and the test
  // suite checks every response it sees against that document instead of paying for it per request.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // First of all hooks: the request's account scope (the default account until a credential names another).
  app.addHook('onRequest', (_request, _reply, done) => runInAccountScope(accounts.default, done));
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  registerErrorHandling(app, (request, reply, error, body) => settleFailure(ctx, request, reply, error, body));
  registerDashboardGuards(app, ctx); // before auth: a foreign Host is 421 whatever the credentials
  registerOwnOriginGuard(app, ctx); // the same, and a foreign Origin 403, on routes that declare ownOrigin (/mcp)
  const failedAuthentications = new FailedAuthentications(); // bearers and dashboard sign-ins count together
  registerAuth(app, ctx, accounts, failedAuthentications); // its preHandler (routes' authorize) precedes idempotency's replay
  registerRateLimit(app, () => current().limiter);
  registerIdempotency(app, ctx);
  registerUsageMetering(app, () => current().meter);
  registerRequestLog(app, ctx, () => current().requestLog);
  const flushAll = () => {
    for (const account of accounts.list()) {
      account.meter.flush();
      account.requestLog.flush();
    }
  };
  const flushTimer = setInterval(flushAll, 1000).unref();
  app.addHook('onClose', async () => {
    clearInterval(flushTimer);
    flushAll();
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'crm API',
        version: VERSION,
        description: 'The CRM REST API, as served by the crm sandbox. Errors are RFC 9457 problem details.',
      },
      servers: [{ url: 'http://127.0.0.1:4010', description: 'replaced by the address the sandbox listens on' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (crm_test_…) or an OAuth access token' } } },
    },
    ...openApiTransforms(),
  });

  registerFaults(app); // its hook must precede the routes it can fail
  leadRoutes(app, ctx);
  bulkRoutes(app, ctx); // POST /v1/{leads,clients,deals}/bulk
  clientRoutes(app, ctx);
  dealRoutes(app, ctx);
  invoiceRoutes(app, ctx);
  apiKeyRoutes(app, ctx);
  oauthRoutes(app, ctx, accounts);
  oauthRegisterRoutes(app, ctx);
  protectedResourceRoutes(app, ctx);
  sandboxRoutes(app, ctx, control, accounts);
  usageRoutes(app, current);
  mcpRoutes(app);
  assistantRoutes(app, ctx, assistant);
  eventRoutes(app, ctx);
  eventStreamRoutes(app, ctx);
  webhookRoutes(app, ctx);
  fieldRoutes(app, ctx);
  requestLogRoutes(app, ctx, () => current().requestLog);
  dashboardRoutes(app, ctx, accounts, failedAuthentications);
  dashboardStreamRoutes(app, ctx, accounts, current);
  apiReferenceRoutes(app);
  accountRoutes(app, accounts, current);

  // With a credential, that account's document: its custom fields typed (account-openapi.ts).
  app.get('/v1/openapi.json', { schema: { hide: true } }, async (request) => {
    const generic = openApiDocument(app, ctx);
    const token = bearerToken(request);
    if (!token) return generic;
    enterAccountOfBearer(accounts, token);
    if (!authenticateBearer(ctx, token)) {
      // Counted with every other refused credential: this route is no way round the failed-authentication limit.
      failedAuthentications.refuse(
        request,
        new ApiError('unauthenticated', 'The API key or access token is unknown, revoked or expired. Without one, the generic document is answered.', {
          headers: { 'www-authenticate': 'Bearer realm="crm", error="invalid_token"' },
        }),
      );
    }
    return accountDocument(generic, listFields(ctx, { limit: 1000 }).data); // at most 200 an object: one page
  });

  await app.ready();
  return app;
}

/** The OpenAPI document with the server URL the sandbox is reachable at right now. */
export function openApiDocument(app: FastifyInstance, ctx: Ctx): Record<string, unknown> {
  const doc = app.swagger() as unknown as Record<string, unknown>;
  // x-internal: false: the audience of this server is any client (OWASP API9, inventory).
  return { ...doc, servers: [{ url: ctx.baseUrl(), description: 'This sandbox', 'x-internal': false }] };
}
