-- Idempotency keys (docs/reference/limits.md#idempotency): the stored response of a write, replayed for 24 hours.
CREATE TABLE idempotency_keys (
  key              TEXT PRIMARY KEY,
  fingerprint      TEXT NOT NULL,      -- method, path and SHA-256 of the body
  state            TEXT NOT NULL,      -- 'running' | 'done'
  owner            TEXT NOT NULL,      -- the process that claimed it; a crashed owner's claim is void
  response_status  INTEGER,
  response_body    TEXT,
  created_at       TEXT NOT NULL,
  expires_at       TEXT NOT NULL
) STRICT;
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
