-- The built-in assistant's conversations (docs/assistant.md): each belongs to the credential that
-- began it (the signed-in key, or the calling key or token), is kept 30 days after its last turn,
-- and holds the model's messages in the AI SDK's format (JSON), in order.
CREATE TABLE assistant_conversations (
  id         TEXT PRIMARY KEY,
  owner      TEXT NOT NULL,       -- the principal's subject: an API key or token id
  title      TEXT NOT NULL,       -- the first question, shortened
  -- Tool calls made since the user's last message: a turn stops at 10 (docs/assistant.md#limits).
  turn_tool_calls INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX assistant_conversations_by_owner ON assistant_conversations (owner, updated_at);

CREATE TABLE assistant_messages (
  conversation_id TEXT NOT NULL REFERENCES assistant_conversations (id) ON DELETE CASCADE,
  seq        INTEGER NOT NULL,
  message    TEXT NOT NULL,       -- one ModelMessage as JSON (user, assistant or tool)
  created_at TEXT NOT NULL,
  PRIMARY KEY (conversation_id, seq)
) STRICT, WITHOUT ROWID;

-- A write the model proposed, waiting for Run or Cancel (or answered: status and when).
CREATE TABLE assistant_confirmations (
  id              TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES assistant_conversations (id) ON DELETE CASCADE,
  approval_id     TEXT NOT NULL,  -- the AI SDK's approval request this answers
  tool            TEXT NOT NULL,
  arguments       TEXT NOT NULL,  -- JSON
  summary         TEXT NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'cancelled')),
  created_at      TEXT NOT NULL,
  answered_at     TEXT
) STRICT;
CREATE INDEX assistant_confirmations_by_conversation ON assistant_confirmations (conversation_id, status);
