-- Which requests the dashboard made (docs/dashboard.md#the-request-log): its session's requests ran under the signed-in key
-- and were logged and counted as that key's, indistinguishable from an app's. `source` is
-- 'dashboard' for a request authenticated by the dashboard's session cookie, 'api' for any other
-- (an API key or OAuth token). Rows from before this migration were not told apart: they read 'api'.
ALTER TABLE request_logs ADD COLUMN source TEXT NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'dashboard'));

-- Usage counts by source too: the counters' key gains it, which SQLite changes only by a new table.
CREATE TABLE usage_counters_by_source (
  day      TEXT NOT NULL,      -- YYYY-MM-DD (UTC)
  subject  TEXT NOT NULL,      -- API key or token id
  source   TEXT NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'dashboard')),
  endpoint TEXT NOT NULL,      -- "GET /v1/deals"
  status   INTEGER NOT NULL,
  count    INTEGER NOT NULL,
  PRIMARY KEY (day, subject, source, endpoint, status)
) STRICT, WITHOUT ROWID;
INSERT INTO usage_counters_by_source (day, subject, source, endpoint, status, count)
  SELECT day, subject, 'api', endpoint, status, count FROM usage_counters;
DROP TABLE usage_counters;
ALTER TABLE usage_counters_by_source RENAME TO usage_counters;
