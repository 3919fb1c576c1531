-- Accounts (docs/accounts.md). A sandbox holds many isolated accounts, each in its own SQLite database
-- (docs/accounts.md says why). This registry lives in the sandbox's main database, which is also
-- the default account's own; other accounts' files sit beside it. In an account's own database
-- the table exists (every database gets every migration) and stays empty.
CREATE TABLE accounts (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  plan          TEXT NOT NULL CHECK (plan IN ('free', 'trial', 'pro')),
  trial_ends_at TEXT,
  trial_used    INTEGER NOT NULL DEFAULT 0,  -- a trial is given once
  is_default    INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL
) STRICT;

-- Snapshots of an account (docs/accounts.md#snapshots): the file its data was saved to.
CREATE TABLE account_snapshots (
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  file       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (account_id, name)
) STRICT;

-- Invoices past their due date turn overdue once (invoice.overdue), when the account's clock passes it.
ALTER TABLE invoices ADD COLUMN overdue_at TEXT;
