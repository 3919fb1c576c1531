-- The search rows are made before each write transaction commits (src/store/search-index.ts), no
-- longer by the first search after the writes, which held every request of every account while it
-- rewrote them (docs/security.md, "Search and ordering"). A database written before that may still hold marked records (all of
-- them after migration 012 or an import never searched): their rows are made here, once, while the
-- sandbox opens the database, so no search has any left to make.

DELETE FROM client_search WHERE rowid IN (SELECT client_rowid FROM client_search_stale);
INSERT INTO client_search (rowid, body)
SELECT s.client_rowid, s.body FROM client_search_stale d JOIN client_search_source s ON s.client_rowid = d.client_rowid;
DELETE FROM client_search_stale;

DELETE FROM lead_search WHERE rowid IN (SELECT lead_rowid FROM lead_search_stale);
INSERT INTO lead_search (rowid, body)
SELECT s.lead_rowid, s.body FROM lead_search_stale d JOIN lead_search_source s ON s.lead_rowid = d.lead_rowid;
DELETE FROM lead_search_stale;

DELETE FROM deal_search WHERE rowid IN (SELECT deal_rowid FROM deal_search_stale);
INSERT INTO deal_search (rowid, body)
SELECT s.deal_rowid, s.body FROM deal_search_stale d JOIN deal_search_source s ON s.deal_rowid = d.deal_rowid;
DELETE FROM deal_search_stale;

DELETE FROM invoice_search WHERE rowid IN (SELECT invoice_rowid FROM invoice_search_stale);
INSERT INTO invoice_search (rowid, body)
SELECT s.invoice_rowid, s.body FROM invoice_search_stale d JOIN invoice_search_source s ON s.invoice_rowid = d.invoice_rowid;
DELETE FROM invoice_search_stale;
