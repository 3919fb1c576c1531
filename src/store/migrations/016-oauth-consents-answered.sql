-- A consent form answers once: each sealed form carries a nonce, recorded here when the form is
-- approved or denied, so the same page cannot mint a second code (docs/security.md). Rows are
-- kept until the form would have expired anyway.
CREATE TABLE oauth_consents_answered (
  nonce TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
