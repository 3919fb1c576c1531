-- A record's history (docs/reference/events.md#reading-events): GET /v1/events?object_id= lists one record's events, newest
-- first in the dashboard. Without this index that is a scan of the 30 days of events.
CREATE INDEX events_object ON events (object_id, id);
