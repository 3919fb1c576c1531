-- The request log (docs/dashboard.md#the-request-log): the last 10,000 /v1 requests, for the dashboard's Logs page and
-- GET /v1/request_logs. Bodies are kept for writes only, at most 64 KB each, secrets redacted.
CREATE TABLE request_logs (
  id                  TEXT PRIMARY KEY,   -- the request's X-Request-Id (req_…), time-sortable
  method              TEXT NOT NULL,
  path                TEXT NOT NULL,      -- without the query string
  query               TEXT,               -- the query string, when there was one
  status              INTEGER NOT NULL,
  duration_ms         INTEGER NOT NULL,
  key_id              TEXT,               -- the API key or OAuth token id; null when unauthenticated
  key_prefix          TEXT,               -- crm_test_XXXX for API keys
  idempotency_key     TEXT,
  idempotent_replayed INTEGER NOT NULL,   -- 0 | 1
  request_body        TEXT,
  response_body       TEXT,
  created_at          TEXT NOT NULL
) STRICT;

CREATE INDEX request_logs_by_key ON request_logs (key_id, id);
