-- Full-text search (`q`) on leads, deals and invoices as on clients (docs/reference/basics.md#lists-and-pagination), one way for all
-- four (src/store/search-index.ts): an FTS5 table `<record>_search` whose row has its record's rowid,
-- a view `<record>_search_source (<record>_rowid, body)` saying what is searched, and triggers that
-- only mark a record stale in `<record>_search_stale` (migration 008 says why). The marked rows are
-- rewritten when a search comes, no longer before every write commits: an import pays the mark only.
--
-- The search tables are contentless (content = ''): the body is made from the record and never read
-- back, so it is not stored a second time (about 10 % less FTS work a record). Rows are deleted by
-- rowid (contentless_delete). Lists find the records by rowid, so client_search loses its client_id
-- column. Every existing record is marked, so the first search makes the rows.
--
-- What is searched: leads by name, email and company (not phone: a number is written in too many
-- ways for words to find it, and its unique digits cost a fifth of the leads' search work); deals by
-- title and their client's name; invoices by number (also its digits without the leading zeros:
-- `42` finds INV-000042), recipient email and their client's name. A client renamed marks its deals
-- and invoices.

DROP TABLE client_search;
DROP VIEW client_search_source;
CREATE VIRTUAL TABLE client_search USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1);
CREATE VIEW client_search_source AS
SELECT c.rowid AS client_rowid,
       concat_ws(' ', c.name, c.email, c.website,
         (SELECT group_concat(concat_ws(' ', p.first_name, p.last_name, p.email), ' ')
            FROM contacts p WHERE p.client_id = c.id)) AS body
  FROM clients c;
INSERT OR IGNORE INTO client_search_stale SELECT rowid FROM clients;

CREATE VIRTUAL TABLE lead_search USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1);
CREATE TABLE lead_search_stale (lead_rowid INTEGER PRIMARY KEY) STRICT;
CREATE VIEW lead_search_source AS
SELECT l.rowid AS lead_rowid, concat_ws(' ', l.first_name, l.last_name, l.email, l.company) AS body
  FROM leads l;
INSERT INTO lead_search_stale SELECT rowid FROM leads;

CREATE TRIGGER leads_search_insert AFTER INSERT ON leads BEGIN
  INSERT OR IGNORE INTO lead_search_stale VALUES (NEW.rowid);
END;
-- A service's update writes every column: WHEN keeps the other changes (status, notes, …) free.
CREATE TRIGGER leads_search_update AFTER UPDATE OF first_name, last_name, email, company ON leads
WHEN OLD.first_name IS NOT NEW.first_name OR OLD.last_name IS NOT NEW.last_name OR OLD.email IS NOT NEW.email
  OR OLD.company IS NOT NEW.company BEGIN
  INSERT OR IGNORE INTO lead_search_stale VALUES (NEW.rowid);
END;
CREATE TRIGGER leads_search_delete AFTER DELETE ON leads BEGIN
  INSERT OR IGNORE INTO lead_search_stale VALUES (OLD.rowid);
END;

CREATE VIRTUAL TABLE deal_search USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1);
CREATE TABLE deal_search_stale (deal_rowid INTEGER PRIMARY KEY) STRICT;
CREATE VIEW deal_search_source AS
SELECT d.rowid AS deal_rowid, concat_ws(' ', d.title, (SELECT c.name FROM clients c WHERE c.id = d.client_id)) AS body
  FROM deals d;
INSERT INTO deal_search_stale SELECT rowid FROM deals;

CREATE TRIGGER deals_search_insert AFTER INSERT ON deals BEGIN
  INSERT OR IGNORE INTO deal_search_stale VALUES (NEW.rowid);
END;
CREATE TRIGGER deals_search_update AFTER UPDATE OF title, client_id ON deals
WHEN OLD.title IS NOT NEW.title OR OLD.client_id IS NOT NEW.client_id BEGIN
  INSERT OR IGNORE INTO deal_search_stale VALUES (NEW.rowid);
END;
CREATE TRIGGER deals_search_delete AFTER DELETE ON deals BEGIN
  INSERT OR IGNORE INTO deal_search_stale VALUES (OLD.rowid);
END;

CREATE VIRTUAL TABLE invoice_search USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1);
CREATE TABLE invoice_search_stale (invoice_rowid INTEGER PRIMARY KEY) STRICT;
CREATE VIEW invoice_search_source AS
SELECT i.rowid AS invoice_rowid,
       concat_ws(' ', i.number, ltrim(substr(i.number, instr(i.number, '-') + 1), '0'), i.recipient_email,
         (SELECT c.name FROM clients c WHERE c.id = i.client_id)) AS body
  FROM invoices i;
INSERT INTO invoice_search_stale SELECT rowid FROM invoices;

CREATE TRIGGER invoices_search_insert AFTER INSERT ON invoices BEGIN
  INSERT OR IGNORE INTO invoice_search_stale VALUES (NEW.rowid);
END;
CREATE TRIGGER invoices_search_update AFTER UPDATE OF number, recipient_email, client_id ON invoices
WHEN OLD.number IS NOT NEW.number OR OLD.recipient_email IS NOT NEW.recipient_email OR OLD.client_id IS NOT NEW.client_id BEGIN
  INSERT OR IGNORE INTO invoice_search_stale VALUES (NEW.rowid);
END;
CREATE TRIGGER invoices_search_delete AFTER DELETE ON invoices BEGIN
  INSERT OR IGNORE INTO invoice_search_stale VALUES (OLD.rowid);
END;

-- A client's name is in its deals' and invoices' search rows.
CREATE TRIGGER clients_name_in_search AFTER UPDATE OF name ON clients WHEN OLD.name IS NOT NEW.name BEGIN
  INSERT OR IGNORE INTO deal_search_stale SELECT rowid FROM deals WHERE client_id = NEW.id;
  INSERT OR IGNORE INTO invoice_search_stale SELECT rowid FROM invoices WHERE client_id = NEW.id;
END;
