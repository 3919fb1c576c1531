-- The sandbox's data model. Times are RFC 3339 UTC text (sorts as time); money is integer minor
-- units; tags, custom_fields, address and line items are JSON text.

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE api_keys (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL,
  hash         TEXT NOT NULL UNIQUE,   -- SHA-256 of the secret; the secret itself is never stored
  prefix       TEXT NOT NULL,
  last4        TEXT NOT NULL,
  scopes       TEXT NOT NULL,          -- JSON array
  created_at   TEXT NOT NULL,
  expires_at   TEXT,
  last_used_at TEXT,
  revoked_at   TEXT
) STRICT;

CREATE TABLE leads (
  id                  TEXT PRIMARY KEY,
  external_id         TEXT UNIQUE,
  first_name          TEXT,
  last_name           TEXT,
  email               TEXT,
  phone               TEXT,
  company             TEXT,
  title               TEXT,
  source              TEXT,
  status              TEXT NOT NULL,
  notes               TEXT,
  tags                TEXT NOT NULL DEFAULT '[]',
  custom_fields       TEXT NOT NULL DEFAULT '{}',
  converted_client_id TEXT,
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL
) STRICT;
CREATE INDEX leads_updated ON leads (updated_at, id);
CREATE INDEX leads_email ON leads (email COLLATE NOCASE);
CREATE INDEX leads_status ON leads (status, id);

CREATE TABLE clients (
  id            TEXT PRIMARY KEY,
  external_id   TEXT UNIQUE,
  name          TEXT NOT NULL,
  kind          TEXT NOT NULL,
  email         TEXT,
  phone         TEXT,
  website       TEXT,
  address       TEXT NOT NULL DEFAULT '{}',
  tags          TEXT NOT NULL DEFAULT '[]',
  custom_fields TEXT NOT NULL DEFAULT '{}',
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
) STRICT;
CREATE INDEX clients_updated ON clients (updated_at, id);
CREATE INDEX clients_email ON clients (email COLLATE NOCASE);

CREATE TABLE contacts (
  id         TEXT PRIMARY KEY,
  client_id  TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  first_name TEXT,
  last_name  TEXT,
  email      TEXT,
  phone      TEXT,
  role       TEXT,
  is_primary INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX contacts_client ON contacts (client_id, id);
CREATE UNIQUE INDEX contacts_one_primary ON contacts (client_id) WHERE is_primary = 1;

CREATE TABLE deals (
  id                  TEXT PRIMARY KEY,
  external_id         TEXT UNIQUE,
  title               TEXT NOT NULL,
  value_minor         INTEGER NOT NULL,
  currency            TEXT NOT NULL,
  stage               TEXT NOT NULL,
  win_probability     REAL NOT NULL,
  client_id           TEXT REFERENCES clients (id) ON DELETE SET NULL,
  expected_close_date TEXT,
  won_at              TEXT,
  lost_at             TEXT,
  lost_reason         TEXT,
  tags                TEXT NOT NULL DEFAULT '[]',
  custom_fields       TEXT NOT NULL DEFAULT '{}',
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL
) STRICT;
CREATE INDEX deals_updated ON deals (updated_at, id);
CREATE INDEX deals_stage ON deals (stage, id);
CREATE INDEX deals_client ON deals (client_id, id);

CREATE TABLE invoices (
  id              TEXT PRIMARY KEY,
  number          TEXT NOT NULL UNIQUE,
  client_id       TEXT NOT NULL REFERENCES clients (id) ON DELETE RESTRICT,
  deal_id         TEXT REFERENCES deals (id) ON DELETE SET NULL,
  recipient_email TEXT NOT NULL,
  currency        TEXT NOT NULL,
  line_items      TEXT NOT NULL,       -- JSON [{description, quantity, unit_price_minor}]
  total_minor     INTEGER NOT NULL,
  due_date        TEXT,
  status          TEXT NOT NULL,
  payment_token   TEXT UNIQUE,
  sent_at         TEXT,
  paid_at         TEXT,
  voided_at       TEXT,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL
) STRICT;
CREATE INDEX invoices_updated ON invoices (updated_at, id);
CREATE INDEX invoices_status ON invoices (status, id);
CREATE INDEX invoices_client ON invoices (client_id, id);

CREATE TABLE mailbox (
  id         TEXT PRIMARY KEY,
  recipient  TEXT NOT NULL,
  subject    TEXT NOT NULL,
  body       TEXT NOT NULL,
  invoice_id TEXT,
  created_at TEXT NOT NULL
) STRICT;

-- The transactional outbox: written in the same transaction as the change it reports.
CREATE TABLE events (
  id                  TEXT PRIMARY KEY,
  type                TEXT NOT NULL,
  object_id           TEXT NOT NULL,
  data                TEXT NOT NULL,   -- JSON of the object after the change
  previous_attributes TEXT,            -- JSON of the changed fields' old values (updates)
  created_at          TEXT NOT NULL
) STRICT;
CREATE INDEX events_type ON events (type, id);

-- Full-text search over clients and their contact persons, kept current by triggers so that no
-- code path can forget it.
CREATE VIRTUAL TABLE client_search USING fts5 (client_id UNINDEXED, body, tokenize = 'unicode61 remove_diacritics 2');

CREATE VIEW client_search_source AS
SELECT c.id AS client_id,
       concat_ws(' ', c.name, c.email, c.website,
         (SELECT group_concat(concat_ws(' ', p.first_name, p.last_name, p.email), ' ')
            FROM contacts p WHERE p.client_id = c.id)) AS body
  FROM clients c;

CREATE TRIGGER clients_search_insert AFTER INSERT ON clients BEGIN
  INSERT INTO client_search (client_id, body) SELECT client_id, body FROM client_search_source WHERE client_id = NEW.id;
END;
CREATE TRIGGER clients_search_update AFTER UPDATE OF name, email, website ON clients BEGIN
  DELETE FROM client_search WHERE client_id = NEW.id;
  INSERT INTO client_search (client_id, body) SELECT client_id, body FROM client_search_source WHERE client_id = NEW.id;
END;
CREATE TRIGGER clients_search_delete AFTER DELETE ON clients BEGIN
  DELETE FROM client_search WHERE client_id = OLD.id;
END;
CREATE TRIGGER contacts_search_insert AFTER INSERT ON contacts BEGIN
  DELETE FROM client_search WHERE client_id = NEW.client_id;
  INSERT INTO client_search (client_id, body) SELECT client_id, body FROM client_search_source WHERE client_id = NEW.client_id;
END;
CREATE TRIGGER contacts_search_update AFTER UPDATE ON contacts BEGIN
  DELETE FROM client_search WHERE client_id IN (OLD.client_id, NEW.client_id);
  INSERT INTO client_search (client_id, body) SELECT client_id, body FROM client_search_source WHERE client_id IN (OLD.client_id, NEW.client_id);
END;
CREATE TRIGGER contacts_search_delete AFTER DELETE ON contacts BEGIN
  DELETE FROM client_search WHERE client_id = OLD.client_id;
  INSERT INTO client_search (client_id, body) SELECT client_id, body FROM client_search_source WHERE client_id = OLD.client_id;
END;
