import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AssistantConfig } from '../../assistant/config.js';
import { ApiError } from '../../errors.js';
import {
  AssistantConfirmationAnswer,
  AssistantConversation,
  AssistantConversationList,
  AssistantConversationListQuery,
  AssistantMessageCreate,
  AssistantStatus,
  AssistantStreamEvent,
} from '../../schemas/assistant.js';
import { IdParams } from '../../schemas/common.js';
import { getConversation, listConversations } from '../../services/assistant-conversations.js';
import type { Ctx } from '../../services/context.js';
import { toolInfo, toolNames } from '../../mcp/catalog.js';
import { BEARER, errorResponses } from '../schema-docs.js';
import { sseStreams } from '../sse.js';

/**
 * The built-in assistant's API (docs/assistant.md). A turn answers Server-Sent Events; its tools
 * are the MCP server's, called through this app as the caller (so every scope check, validation
 * and event is the REST API's own). The model provider's key never leaves this process.
 */
const SCOPE = 'assistant:use';

const NOT_CONFIGURED =
  'No model provider is set for the assistant. Start the sandbox with --assistant-url URL --assistant-model NAME ' +
  '(or CRM_ASSISTANT_URL and CRM_ASSISTANT_MODEL; the key in CRM_ASSISTANT_API_KEY), e.g. for Ollama: ' +
  'crm sandbox start --assistant-url http://127.0.0.1:11434/v1 --assistant-model llama3.1. See docs/assistant.md.';

/** The request's own credential, to call the API as the caller: its bearer token, or the dashboard's session. */
function credentialHeaders(request: FastifyRequest): Record<string, string> {
  if (request.credential?.kind === 'bearer') return { authorization: request.headers.authorization! };
  const headers: Record<string, string> = {};
  for (const name of ['cookie', 'x-crm-dashboard', 'origin', 'host']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/** What a turn answers: its event stream, or a problem before it starts (the route's own, then the provider's). */
const turnResponses = (...own: Parameters<typeof errorResponses>) => ({
  200: {
    description:
      'Server-Sent Events: `event: <type>` and `data: <JSON>` for each of conversation, text, tool_call, confirmation_required, ' +
      'tool_result, done and error. A provider failure before the first word is a problem instead (502/504).',
    content: { 'text/event-stream': { schema: AssistantStreamEvent } },
  },
  ...errorResponses(
    ...own,
    'validation_failed',
    'assistant_provider_unavailable',
    'assistant_provider_rate_limited',
    'assistant_not_configured',
    'assistant_provider_timeout',
  ),
});

export function assistantRoutes(fastify: FastifyInstance, ctx: Ctx, config: AssistantConfig | undefined): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const streams = sseStreams(fastify);
  const base = { tags: ['Assistant'], security: BEARER };

  // Loaded on first use: the AI SDK and the MCP tools are big, and most runs never ask.
  const turnModule = () => import('../../assistant/turn.js');
  // A turn ends when its caller goes away or the sandbox stops: nobody is left to read the
  // answer, and a provider that hangs would otherwise hold the request (and the stop) until its time-out.
  const running = new Set<AbortController>();
  fastify.addHook('preClose', async () => {
    for (const turn of running) turn.abort();
  });

  async function deps(request: FastifyRequest, reply: FastifyReply) {
    const [{ injectBackend }, { crmTools }] = await Promise.all([import('../../mcp/backend.js'), import('../../mcp/catalog.js')]);
    // Only the tools the caller's scopes allow: the model is not offered what would be refused.
    const api = injectBackend(fastify, credentialHeaders(request));
    const turn = new AbortController();
    running.add(turn);
    reply.raw.once('close', () => {
      running.delete(turn);
      turn.abort();
    });
    return { ctx, config: config!, owner: request.principal!.subject, tools: crmTools(api, request.principal!.scopes), api, signal: turn.signal };
  }

  /**
   * Sends a turn's events. Until the model's first event it can still answer a problem (a provider
   * that is down is a 502, not a stream that says so); after that, a failure is an `error` event.
   */
  async function stream(request: FastifyRequest, reply: FastifyReply, events: AsyncGenerator<AssistantStreamEvent>) {
    const early: AssistantStreamEvent[] = [];
    for (;;) {
      const next = await events.next(); // throws a problem before anything is sent
      if (next.done) break;
      early.push(next.value);
      if (next.value.type !== 'conversation') break;
    }
    const sse = streams.open(request, reply, ctx);
    const send = (event: AssistantStreamEvent) => sse.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    for (const event of early) send(event);
    try {
      for await (const event of events) send(event);
    } catch (error) {
      const problem = error instanceof ApiError ? error : new ApiError('internal_error', 'The assistant failed; the error is in the sandbox log.');
      if (!(error instanceof ApiError)) request.log.error(error);
      send({ type: 'error', code: problem.code, detail: problem.message });
    }
    sse.end();
  }

  const configured = () => {
    if (!config) throw new ApiError('assistant_not_configured', NOT_CONFIGURED);
  };

  app.get('/v1/assistant', {
    config: { scope: SCOPE },
    schema: { ...base, summary: 'Whether the assistant has a model, and the tools it may use for this credential', response: { 200: AssistantStatus } },
    handler: async (request) => {
      return {
        configured: config !== undefined,
        provider: config?.provider ?? null,
        model: config?.model ?? null,
        endpoint: config ? new URL(config.url).origin : null,
        tools: toolNames(request.principal!.scopes),
      };
    },
  });

  app.post('/v1/assistant/messages', {
    config: { scope: SCOPE },
    schema: {
      ...base,
      summary: 'Ask the assistant: one turn, streamed',
      description:
        'Reads run at once; a write is proposed (`confirmation_required`) and runs only after POST /v1/assistant/confirmations/{id}. ' +
        'A turn makes at most 10 tool calls.',
      body: AssistantMessageCreate,
      response: turnResponses('not_found'),
    },
    handler: async (request, reply) => {
      configured();
      const { ask } = await turnModule();
      await stream(request, reply, ask(await deps(request, reply), request.body));
    },
  });

  app.post('/v1/assistant/confirmations/:id', {
    config: { scope: SCOPE },
    schema: {
      ...base,
      summary: 'Run or cancel a write the assistant proposed, and go on with the turn (streamed)',
      params: IdParams,
      body: AssistantConfirmationAnswer,
      response: turnResponses('not_found', 'conflict'),
    },
    handler: async (request, reply) => {
      configured();
      const { confirm } = await turnModule();
      await stream(request, reply, confirm(await deps(request, reply), request.params.id, request.body.approve));
    },
  });

  app.get('/v1/assistant/conversations', {
    config: { scope: SCOPE },
    schema: {
      ...base,
      summary: "List this credential's conversations, the latest first (kept 30 days)",
      querystring: AssistantConversationListQuery,
      response: { 200: AssistantConversationList, ...errorResponses('invalid_cursor') },
    },
    handler: async (request) => listConversations(ctx, request.principal!.subject, request.query),
  });

  app.get('/v1/assistant/conversations/:id', {
    config: { scope: SCOPE },
    schema: {
      ...base,
      summary: 'Get a conversation: its questions, answers, tool calls and the writes waiting for Run',
      params: IdParams,
      response: { 200: AssistantConversation, ...errorResponses('not_found') },
    },
    handler: async (request) => getConversation(ctx, request.principal!.subject, request.params.id, toolInfo),
  });
}
