import { decodeCursor, encodeCursor } from '../domain/cursor.js';
import { ApiError, notFound } from '../errors.js';
import type { AssistantConfirmation, AssistantConversation, AssistantTranscriptItem } from '../schemas/assistant.js';
import {
  answerConfirmation,
  appendMessages,
  type ConfirmationRow,
  type ConversationRow,
  confirmationsOf,
  conversationsOf,
  deleteConversationsBefore,
  findConfirmation,
  findConversation,
  findConversationById,
  insertConfirmation,
  insertConversation,
  messagesOf,
  reopenAnsweredConfirmation,
  touchConversation,
} from '../store/assistant.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';
import { inTransaction } from './transactions.js';

/**
 * The assistant's conversations (docs/assistant.md#conversations): each belongs to the credential
 * that began it, holds the model's messages as the AI SDK keeps them, and is deleted 30 days after
 * its last turn. Only its owner reads it, answers its confirmations or continues it.
 */
export type { ConfirmationRow } from '../store/assistant.js';

const KEPT_DAYS = 30;
const DAY_MS = 86_400_000;
const TITLE_LENGTH = 80;

/** A message as stored: the AI SDK's ModelMessage, kept as plain JSON. */
export type StoredMessage = { role: 'system' | 'user' | 'assistant' | 'tool'; content: unknown };

export interface ToolInfo {
  title: string;
  destructive: boolean;
}

const expiresAt = (updatedAt: string) => new Date(Date.parse(updatedAt) + KEPT_DAYS * DAY_MS).toISOString();

function conversationJson(row: ConversationRow): AssistantConversation {
  return {
    id: row.id,
    object: 'assistant_conversation',
    title: row.title,
    created_at: row.created_at,
    updated_at: row.updated_at,
    expires_at: expiresAt(row.updated_at),
  };
}

export function confirmationJson(row: ConfirmationRow, tools: (name: string) => ToolInfo | undefined): AssistantConfirmation {
  const tool = tools(row.tool);
  return {
    id: row.id,
    object: 'assistant_confirmation',
    conversation_id: row.conversation_id,
    tool: row.tool,
    title: tool?.title ?? row.tool,
    arguments: JSON.parse(row.arguments),
    summary: row.summary,
    destructive: tool?.destructive ?? true,
    status: row.status,
    created_at: row.created_at,
  };
}

/** Deletes what is past its 30 days; run as a turn begins, so nothing older is ever read. */
function forgetOld(ctx: Ctx): void {
  deleteConversationsBefore(ctx.db, new Date(ctx.clock() - KEPT_DAYS * DAY_MS).toISOString());
}

/** The owner's conversation to continue, or a new one titled by the question. */
export function openConversation(ctx: Ctx, owner: string, id: string | undefined, question: string): ConversationRow {
  forgetOld(ctx);
  if (id) {
    const row = findConversation(ctx.db, id, owner);
    if (!row) throw notFound('conversation', id);
    return row;
  }
  const now = nowIso(ctx);
  const oneLine = question.replace(/\s+/g, ' ').trim();
  const row: ConversationRow = {
    id: ctx.ids.next('conv'),
    owner,
    title: oneLine.length > TITLE_LENGTH ? `${oneLine.slice(0, TITLE_LENGTH - 1)}…` : oneLine,
    turn_tool_calls: 0,
    created_at: now,
    updated_at: now,
  };
  insertConversation(ctx.db, row);
  return row;
}

export const conversationMessages = (ctx: Ctx, id: string): StoredMessage[] => messagesOf(ctx.db, id).map((m) => JSON.parse(m.message) as StoredMessage);

/** Adds a turn's messages and its tool-call count in one transaction. */
export function recordMessages(ctx: Ctx, conversationId: string, messages: StoredMessage[], turnToolCalls: number): void {
  inTransaction(ctx, () => {
    const now = nowIso(ctx);
    appendMessages(
      ctx.db,
      conversationId,
      messages.map((m) => JSON.stringify(m)),
      now,
    );
    touchConversation(ctx.db, conversationId, now, turnToolCalls);
  });
}

export function proposeWrite(
  ctx: Ctx,
  conversationId: string,
  proposal: { approvalId: string; tool: string; args: Record<string, unknown>; summary: string },
): ConfirmationRow {
  const row: ConfirmationRow = {
    id: ctx.ids.next('conf'),
    conversation_id: conversationId,
    approval_id: proposal.approvalId,
    tool: proposal.tool,
    arguments: JSON.stringify(proposal.args),
    summary: proposal.summary,
    status: 'pending',
    created_at: nowIso(ctx),
    answered_at: null,
  };
  insertConfirmation(ctx.db, row);
  return row;
}

/** The owner's pending confirmation, answered now; 409 when it was answered already. */
export function decide(ctx: Ctx, owner: string, id: string, approve: boolean): ConfirmationRow {
  const row = findConfirmation(ctx.db, id, owner);
  if (!row) throw notFound('confirmation', id);
  if (!answerConfirmation(ctx.db, id, approve ? 'approved' : 'cancelled', nowIso(ctx))) {
    throw new ApiError('conflict', `This confirmation was answered already (${row.status}). Ask again to propose a new change.`);
  }
  return { ...row, status: approve ? 'approved' : 'cancelled' };
}

/** Puts an answered confirmation back to pending: the turn that ran it failed before it was recorded. */
export function reopenConfirmation(ctx: Ctx, row: ConfirmationRow): void {
  reopenAnsweredConfirmation(ctx.db, row.id);
}

export const answeredConfirmations = (ctx: Ctx, conversationId: string): ConfirmationRow[] =>
  confirmationsOf(ctx.db, conversationId).filter((c) => c.status !== 'pending');

/** How many tool calls the conversation's current turn has made (it stops at 10). */
export const turnToolCalls = (ctx: Ctx, conversationId: string): number => findConversationById(ctx.db, conversationId)?.turn_tool_calls ?? 0;

export const pendingConfirmations = (ctx: Ctx, conversationId: string): ConfirmationRow[] =>
  confirmationsOf(ctx.db, conversationId).filter((c) => c.status === 'pending');

export function listConversations(ctx: Ctx, owner: string, query: { limit: number; cursor?: string | undefined }) {
  forgetOld(ctx);
  // The owner is in the fingerprint: a cursor of one credential's list is refused on another's.
  const fingerprint = `assistant_conversations:${owner}`;
  const position = query.cursor ? decodeCursor(ctx.cursorSecret, fingerprint, query.cursor).after : undefined;
  const after = position ? { updated_at: String(position[0]), id: String(position[1]) } : undefined;
  const rows = conversationsOf(ctx.db, owner, query.limit + 1, after);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    data: page.map(conversationJson),
    next_cursor: rows.length > query.limit && last ? encodeCursor(ctx.cursorSecret, fingerprint, { after: [last.updated_at, last.id] }) : null,
  };
}

/** One conversation as people read it: questions, answers and the tools used, with the writes waiting for Run. */
export function getConversation(ctx: Ctx, owner: string, id: string, tools: (name: string) => ToolInfo | undefined): AssistantConversation {
  forgetOld(ctx);
  const row = findConversation(ctx.db, id, owner);
  if (!row) throw notFound('conversation', id);
  return {
    ...conversationJson(row),
    items: transcript(conversationMessages(ctx, id)),
    pending_confirmations: pendingConfirmations(ctx, id).map((c) => confirmationJson(c, tools)),
  };
}

type Part = {
  type: string;
  text?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  output?: { type: string; value?: unknown; reason?: string };
};

/** The model's messages as a list people read: text as said, each tool call with its result beside it. */
function transcript(messages: StoredMessage[]): AssistantTranscriptItem[] {
  const items: AssistantTranscriptItem[] = [];
  const calls = new Map<string, AssistantTranscriptItem>();
  const item = (type: AssistantTranscriptItem['type'], fields: Partial<AssistantTranscriptItem>): AssistantTranscriptItem => ({
    type,
    text: null,
    tool: null,
    tool_call_id: null,
    arguments: null,
    result: null,
    is_error: null,
    ...fields,
  });
  for (const message of messages) {
    const parts: Part[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as Part[]);
    for (const part of parts) {
      if (part.type === 'text' && part.text && (message.role === 'user' || message.role === 'assistant')) {
        items.push(item(message.role, { text: part.text }));
      } else if (part.type === 'tool-call' && part.toolCallId) {
        const call = item('tool', { tool: part.toolName ?? null, tool_call_id: part.toolCallId, arguments: (part.input as Record<string, unknown>) ?? {} });
        calls.set(part.toolCallId, call);
        items.push(call);
      } else if (part.type === 'tool-result' && part.toolCallId) {
        const call = calls.get(part.toolCallId);
        if (!call) continue;
        const output = part.output;
        call.is_error = output?.type === 'error-text' || output?.type === 'error-json' || output?.type === 'execution-denied';
        call.result = output?.type === 'execution-denied' ? (output.reason ?? 'Cancelled') : (output?.value ?? null);
      }
    }
  }
  return items;
}
