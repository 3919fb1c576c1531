-- Request counts per UTC day, key or token, endpoint and status (docs/reference/limits.md#usage): GET /v1/usage.
CREATE TABLE usage_counters (
  day      TEXT NOT NULL,      -- YYYY-MM-DD (UTC)
  subject  TEXT NOT NULL,      -- API key or token id
  endpoint TEXT NOT NULL,      -- "GET /v1/deals"
  status   INTEGER NOT NULL,
  count    INTEGER NOT NULL,
  PRIMARY KEY (day, subject, endpoint, status)
) STRICT, WITHOUT ROWID;
