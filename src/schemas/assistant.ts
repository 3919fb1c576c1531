import { z } from 'zod';
import { listEnvelope, listQueryFields } from './common.js';
import { lazySchema } from './lazy.js';

/** The built-in assistant's API (docs/assistant.md): status, a turn, confirmations, conversations. */

export const AssistantStatus = lazySchema(() =>
  z
    .object({
      configured: z.boolean().describe('false: no model provider is set; POST /v1/assistant/messages answers 503 with how to set one'),
      provider: z.enum(['openai', 'anthropic']).nullable().describe('The protocol spoken to the provider: OpenAI Chat Completions or Anthropic Messages'),
      model: z.string().nullable(),
      endpoint: z.string().nullable().describe("The provider's origin (scheme, host and port); the key is never shown"),
      tools: z.array(z.string()).describe('The tools this credential lets the assistant use (the same as the MCP server lists for it)'),
    })
    .meta({ id: 'AssistantStatus' }),
);

export const AssistantMessageCreate = lazySchema(() =>
  z
    .strictObject({
      conversation_id: z.string().max(100).optional().describe('Continue this conversation; a new one is started without it'),
      content: z.string().trim().min(1).max(8000).describe('What the user asks'),
    })
    .meta({ id: 'AssistantMessageCreate', examples: [{ content: 'Create a deal for Acme worth €12,000 in proposal' }] }),
);

export const AssistantConfirmationAnswer = lazySchema(() =>
  z.strictObject({ approve: z.boolean().describe('true runs the proposed write (Run); false cancels it, and the model is told') }).meta({
    id: 'AssistantConfirmationAnswer',
  }),
);

export const AssistantConfirmation = lazySchema(() =>
  z
    .object({
      id: z.string().describe('conf_…'),
      object: z.literal('assistant_confirmation'),
      conversation_id: z.string(),
      tool: z.string().describe('The MCP tool the model wants to call'),
      title: z.string().describe("The tool's title, e.g. Create a deal"),
      arguments: z.record(z.string(), z.unknown()),
      summary: z.string().describe('The change in words, e.g. Create a deal “Acme rollout”: 12,000.00 EUR, stage proposal, client Acme GmbH'),
      destructive: z.boolean().describe('The tool overwrites, clears, sends, pays or deletes (MCP destructiveHint)'),
      status: z.enum(['pending', 'approved', 'cancelled']),
      created_at: z.string(),
    })
    .meta({ id: 'AssistantConfirmation' }),
);

/** One entry of a conversation as people read it: a question, an answer, or a tool the assistant used. */
export const AssistantTranscriptItem = lazySchema(() =>
  z
    .object({
      type: z.enum(['user', 'assistant', 'tool']),
      text: z.string().nullable().describe('user and assistant: the words'),
      tool: z.string().nullable().describe('tool: its name'),
      tool_call_id: z.string().nullable(),
      arguments: z.record(z.string(), z.unknown()).nullable(),
      result: z.unknown().describe('tool: what it answered (null while waiting for Run)'),
      is_error: z.boolean().nullable().describe('tool: it failed or was refused, or Cancel was chosen'),
    })
    .meta({ id: 'AssistantTranscriptItem' }),
);

export const AssistantConversation = lazySchema(() =>
  z
    .object({
      id: z.string().describe('conv_…'),
      object: z.literal('assistant_conversation'),
      title: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
      expires_at: z.string().describe('30 days after the last turn; then it is deleted'),
      items: z.array(AssistantTranscriptItem.unwrap()).optional().describe('GET /v1/assistant/conversations/{id} only'),
      pending_confirmations: z.array(AssistantConfirmation.unwrap()).optional().describe('GET /v1/assistant/conversations/{id} only'),
    })
    .meta({ id: 'AssistantConversation' }),
);

export const AssistantConversationList = lazySchema(() => listEnvelope(AssistantConversation.unwrap()).meta({ id: 'AssistantConversationList' }));
export const AssistantConversationListQuery = lazySchema(() => z.strictObject({ limit: listQueryFields().limit, cursor: listQueryFields().cursor }));

/**
 * The Server-Sent Events of a turn: `event:` is the type, `data:` this JSON. One schema for the
 * OpenAPI document and the SDKs' iterators.
 */
export const AssistantStreamEvent = lazySchema(() =>
  z
    .object({
      type: z.enum(['conversation', 'text', 'tool_call', 'confirmation_required', 'tool_result', 'done', 'error']),
      conversation_id: z.string().optional().describe('conversation, done'),
      delta: z.string().optional().describe('text: the next words of the answer'),
      tool_call_id: z.string().optional().describe('tool_call, tool_result'),
      tool: z.string().optional().describe('tool_call, tool_result, confirmation_required'),
      arguments: z.record(z.string(), z.unknown()).optional().describe('tool_call'),
      read_only: z.boolean().optional().describe('tool_call: a read runs at once; a write waits for a confirmation'),
      result: z.unknown().optional().describe('tool_result: what the tool answered'),
      is_error: z.boolean().optional().describe('tool_result: the call failed, was refused or cancelled'),
      confirmation: AssistantConfirmation.unwrap().optional().describe('confirmation_required'),
      status: z
        .enum(['complete', 'awaiting_confirmation', 'tool_limit'])
        .optional()
        .describe('done: answered; waiting for Run or Cancel; or stopped after 10 tool calls'),
      code: z.string().optional().describe('error: a problem type code, e.g. assistant_provider_unavailable'),
      detail: z.string().optional().describe('error: what happened and what to do'),
    })
    .meta({ id: 'AssistantStreamEvent' }),
);

export type AssistantStreamEvent = z.infer<typeof AssistantStreamEvent>;
export type AssistantConfirmation = z.infer<typeof AssistantConfirmation>;
export type AssistantTranscriptItem = z.infer<typeof AssistantTranscriptItem>;
export type AssistantConversation = z.infer<typeof AssistantConversation>;
export type AssistantStatus = z.infer<typeof AssistantStatus>;
