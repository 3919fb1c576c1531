-- Dashboard sign-in (docs/dashboard.md#signing-in). Both tables hold SHA-256 hashes only: a copy of the database
-- does not let anyone sign in. Each row is bound to the API key whose rights it carries, so
-- revoking that key ends its sessions at once.

-- Single-use login tokens, printed by `crm sandbox start` and `crm dashboard`, valid 15 minutes.
CREATE TABLE dashboard_logins (
  hash        TEXT PRIMARY KEY,
  key_id      TEXT NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  expires_at  TEXT NOT NULL,
  used_at     TEXT
) STRICT;

-- Sessions behind the dashboard's cookie, 12 hours.
CREATE TABLE dashboard_sessions (
  hash        TEXT PRIMARY KEY,
  key_id      TEXT NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  created_at  TEXT NOT NULL,
  expires_at  TEXT NOT NULL
) STRICT;
