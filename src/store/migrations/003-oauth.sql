-- OAuth 2.0 for third-party apps (docs/reference/access.md#oauth-20). Client secrets, codes and tokens are random and
-- stored only as SHA-256 hashes: a copy of the database grants nothing.

CREATE TABLE oauth_apps (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  client_id     TEXT NOT NULL UNIQUE,
  secret_hash   TEXT NOT NULL,
  redirect_uris TEXT NOT NULL,         -- JSON array, matched exactly
  scopes        TEXT NOT NULL,         -- JSON array: the most the app may ask for
  created_at    TEXT NOT NULL
) STRICT;

-- Authorization codes: 60 s, single use. family_id names the tokens the code was exchanged for,
-- so a second use can revoke them (RFC 6749 §4.1.2).
CREATE TABLE oauth_codes (
  hash           TEXT PRIMARY KEY,
  app_id         TEXT NOT NULL REFERENCES oauth_apps (id) ON DELETE CASCADE,
  redirect_uri   TEXT NOT NULL,
  scopes         TEXT NOT NULL,
  code_challenge TEXT NOT NULL,        -- PKCE S256: BASE64URL(SHA-256(code_verifier))
  created_at     TEXT NOT NULL,
  expires_at     TEXT NOT NULL,
  used_at        TEXT,
  family_id      TEXT
) STRICT;
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);

-- Access tokens (1 h) and refresh tokens (30 days). One grant is one family: each refresh uses
-- up its refresh token and adds a new pair to the family; a used refresh token presented again
-- revokes the whole family (refresh token rotation with reuse detection, RFC 6819 §5.2.2.3).
CREATE TABLE oauth_tokens (
  hash       TEXT PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  app_id     TEXT NOT NULL REFERENCES oauth_apps (id) ON DELETE CASCADE,
  family_id  TEXT NOT NULL,
  scopes     TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at    TEXT,                     -- refresh tokens: when rotated
  revoked_at TEXT
) STRICT;
CREATE INDEX oauth_tokens_family ON oauth_tokens (family_id);
CREATE INDEX oauth_tokens_expiry ON oauth_tokens (expires_at);
