-- The search rows of a client were found by client_id, an UNINDEXED column of the FTS5 table, so
-- every contact added or changed (and every client renamed or deleted) scanned the whole search
-- table: importing 50k clients with a contact each took 442 s. Each search row now has its
-- client's rowid as its own rowid, and is deleted by it: a B-tree lookup. The sandbox never runs
-- VACUUM, which may renumber the rowids of a table without an INTEGER PRIMARY KEY; after one,
-- `crm sandbox reset` empties the search table with the data and rebuilds it.

DROP TRIGGER clients_search_insert;
DROP TRIGGER clients_search_update;
DROP TRIGGER clients_search_delete;
DROP TRIGGER contacts_search_insert;
DROP TRIGGER contacts_search_update;
DROP TRIGGER contacts_search_delete;
DROP TABLE client_search;

CREATE VIRTUAL TABLE client_search USING fts5 (client_id UNINDEXED, body, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO client_search (rowid, client_id, body)
SELECT c.rowid, s.client_id, s.body FROM clients c JOIN client_search_source s ON s.client_id = c.id;

CREATE TRIGGER clients_search_insert AFTER INSERT ON clients BEGIN
  INSERT INTO client_search (rowid, client_id, body) SELECT NEW.rowid, client_id, body FROM client_search_source WHERE client_id = NEW.id;
END;
CREATE TRIGGER clients_search_update AFTER UPDATE OF name, email, website ON clients BEGIN
  DELETE FROM client_search WHERE rowid = OLD.rowid;
  INSERT INTO client_search (rowid, client_id, body) SELECT NEW.rowid, client_id, body FROM client_search_source WHERE client_id = NEW.id;
END;
CREATE TRIGGER clients_search_delete AFTER DELETE ON clients BEGIN
  DELETE FROM client_search WHERE rowid = OLD.rowid;
END;

-- A contact changes its client's search row (and, when it moves, its old client's too).
CREATE TRIGGER contacts_search_insert AFTER INSERT ON contacts BEGIN
  DELETE FROM client_search WHERE rowid = (SELECT rowid FROM clients WHERE id = NEW.client_id);
  INSERT INTO client_search (rowid, client_id, body)
  SELECT c.rowid, s.client_id, s.body FROM clients c JOIN client_search_source s ON s.client_id = c.id WHERE c.id = NEW.client_id;
END;
CREATE TRIGGER contacts_search_update AFTER UPDATE ON contacts BEGIN
  DELETE FROM client_search WHERE rowid IN (SELECT rowid FROM clients WHERE id IN (OLD.client_id, NEW.client_id));
  INSERT INTO client_search (rowid, client_id, body)
  SELECT c.rowid, s.client_id, s.body FROM clients c JOIN client_search_source s ON s.client_id = c.id WHERE c.id IN (OLD.client_id, NEW.client_id);
END;
CREATE TRIGGER contacts_search_delete AFTER DELETE ON contacts BEGIN
  DELETE FROM client_search WHERE rowid = (SELECT rowid FROM clients WHERE id = OLD.client_id);
  INSERT INTO client_search (rowid, client_id, body)
  SELECT c.rowid, s.client_id, s.body FROM clients c JOIN client_search_source s ON s.client_id = c.id WHERE c.id = OLD.client_id;
END;
