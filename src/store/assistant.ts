import type { Db } from './db.js';
import { insertRow, stmt } from './rows.js';

/** The assistant's conversations, their messages and the writes waiting for Run (migration 020). */
export interface ConversationRow {
  id: string;
  owner: string;
  title: string;
  turn_tool_calls: number;
  created_at: string;
  updated_at: string;
}

export interface ConfirmationRow {
  id: string;
  conversation_id: string;
  approval_id: string;
  tool: string;
  arguments: string;
  summary: string;
  status: 'pending' | 'approved' | 'cancelled';
  created_at: string;
  answered_at: string | null;
}

export const insertConversation = (db: Db, row: ConversationRow): void => insertRow(db, 'assistant_conversations', { ...row });

export const findConversation = (db: Db, id: string, owner: string): ConversationRow | undefined =>
  stmt(db, 'SELECT * FROM assistant_conversations WHERE id = ? AND owner = ?').get(id, owner) as ConversationRow | undefined;

export const findConversationById = (db: Db, id: string): ConversationRow | undefined =>
  stmt(db, 'SELECT * FROM assistant_conversations WHERE id = ?').get(id) as ConversationRow | undefined;

/** An owner's conversations, the latest first, after the given one (updated_at, id) for the next page. */
export function conversationsOf(db: Db, owner: string, limit: number, after?: { updated_at: string; id: string }): ConversationRow[] {
  if (!after) {
    return stmt(db, 'SELECT * FROM assistant_conversations WHERE owner = ? ORDER BY updated_at DESC, id DESC LIMIT ?').all(owner, limit) as ConversationRow[];
  }
  return stmt(db, 'SELECT * FROM assistant_conversations WHERE owner = ? AND (updated_at, id) < (?, ?) ORDER BY updated_at DESC, id DESC LIMIT ?').all(
    owner,
    after.updated_at,
    after.id,
    limit,
  ) as ConversationRow[];
}

export const touchConversation = (db: Db, id: string, updatedAt: string, turnToolCalls: number): void => {
  stmt(db, 'UPDATE assistant_conversations SET updated_at = ?, turn_tool_calls = ? WHERE id = ?').run(updatedAt, turnToolCalls, id);
};

/** Conversations whose last turn is older than `before` go, with their messages and confirmations. */
export const deleteConversationsBefore = (db: Db, before: string): number =>
  stmt(db, 'DELETE FROM assistant_conversations WHERE updated_at < ?').run(before).changes;

export const messagesOf = (db: Db, conversationId: string): { seq: number; message: string; created_at: string }[] =>
  stmt(db, 'SELECT seq, message, created_at FROM assistant_messages WHERE conversation_id = ? ORDER BY seq').all(conversationId) as {
    seq: number;
    message: string;
    created_at: string;
  }[];

export function appendMessages(db: Db, conversationId: string, messages: string[], createdAt: string): void {
  const last = stmt(db, 'SELECT coalesce(max(seq), 0) AS seq FROM assistant_messages WHERE conversation_id = ?').get(conversationId) as { seq: number };
  const insert = stmt(db, 'INSERT INTO assistant_messages (conversation_id, seq, message, created_at) VALUES (?, ?, ?, ?)');
  messages.forEach((message, i) => insert.run(conversationId, last.seq + 1 + i, message, createdAt));
}

export const insertConfirmation = (db: Db, row: ConfirmationRow): void => insertRow(db, 'assistant_confirmations', { ...row });

/** A confirmation, if its conversation belongs to `owner`. */
export const findConfirmation = (db: Db, id: string, owner: string): ConfirmationRow | undefined =>
  stmt(
    db,
    `SELECT f.* FROM assistant_confirmations f JOIN assistant_conversations c ON c.id = f.conversation_id
     WHERE f.id = ? AND c.owner = ?`,
  ).get(id, owner) as ConfirmationRow | undefined;

export const confirmationsOf = (db: Db, conversationId: string): ConfirmationRow[] =>
  stmt(db, 'SELECT * FROM assistant_confirmations WHERE conversation_id = ? ORDER BY created_at, id').all(conversationId) as ConfirmationRow[];

/** Answers a pending confirmation; false when it was answered already (a second click, a race). */
export const answerConfirmation = (db: Db, id: string, status: 'approved' | 'cancelled', answeredAt: string): boolean =>
  stmt(db, "UPDATE assistant_confirmations SET status = ?, answered_at = ? WHERE id = ? AND status = 'pending'").run(status, answeredAt, id).changes === 1;

export const reopenAnsweredConfirmation = (db: Db, id: string): void => {
  stmt(db, "UPDATE assistant_confirmations SET status = 'pending', answered_at = NULL WHERE id = ?").run(id);
};
