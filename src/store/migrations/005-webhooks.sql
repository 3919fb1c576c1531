-- Webhook endpoints and their delivery attempts (docs/reference/events.md#webhooks).

CREATE TABLE webhook_endpoints (
  id                        TEXT PRIMARY KEY,
  url                       TEXT NOT NULL,
  description               TEXT,
  enabled_events            TEXT NOT NULL,   -- JSON array: ["*"] or event types
  status                    TEXT NOT NULL,   -- enabled | disabled
  secret                    TEXT NOT NULL,   -- whsec_…; kept in clear because deliveries are signed with it
  previous_secret           TEXT,            -- the secret before the last rotation, still signing until…
  previous_secret_expires_at TEXT,           -- …this time (24 h after the rotation)
  disabled_reason           TEXT,            -- why the sandbox disabled it (a 410), null when a user did
  created_at                TEXT NOT NULL,
  updated_at                TEXT NOT NULL
) STRICT;

-- One row per attempt to deliver one event to one endpoint. A row is written `pending` when the
-- attempt is scheduled (in the event's own transaction for the first one), and settled to
-- `succeeded` or `failed` once it has run, in the same transaction that schedules the next one.
-- So the table is both the queue and the log, and a pending row survives any crash.
CREATE TABLE webhook_deliveries (
  id              TEXT PRIMARY KEY,
  endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id        TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  event_type      TEXT NOT NULL,
  attempt         INTEGER NOT NULL,          -- 1..8 within one round of the retry schedule
  status          TEXT NOT NULL,             -- pending | succeeded | failed
  status_code     INTEGER,
  duration_ms     INTEGER,
  error           TEXT,
  -- pending: when this attempt runs; failed: when the next one is due (null: no more tries).
  next_attempt_at TEXT,
  attempted_at    TEXT,
  created_at      TEXT NOT NULL
) STRICT;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

-- The event list filters by time and purges by it.
CREATE INDEX events_created ON events (created_at);
