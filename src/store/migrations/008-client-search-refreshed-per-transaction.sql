-- Triggers rewrote a client's search row on every client and contact write. FTS5 writes its
-- pending terms out as a new segment at every statement savepoint, so clients written one
-- statement at a time (a bulk batch) cost ~350 µs each, 10k clients with a contact 3.5 s of
-- SQLite. The triggers now only mark the client's search row stale; refreshClientSearch
-- (src/store/client-search.ts) rewrites the stale rows in three statements before every write
-- transaction commits (inTransaction calls it): the same 10k, 0.38 s.

CREATE TABLE client_search_stale (client_rowid INTEGER PRIMARY KEY) STRICT;

DROP TRIGGER clients_search_insert;
DROP TRIGGER clients_search_update;
DROP TRIGGER clients_search_delete;
DROP TRIGGER contacts_search_insert;
DROP TRIGGER contacts_search_update;
DROP TRIGGER contacts_search_delete;

CREATE TRIGGER clients_search_insert AFTER INSERT ON clients BEGIN
  INSERT OR IGNORE INTO client_search_stale VALUES (NEW.rowid);
END;
CREATE TRIGGER clients_search_update AFTER UPDATE OF name, email, website ON clients BEGIN
  INSERT OR IGNORE INTO client_search_stale VALUES (NEW.rowid);
END;
CREATE TRIGGER clients_search_delete AFTER DELETE ON clients BEGIN
  INSERT OR IGNORE INTO client_search_stale VALUES (OLD.rowid);
END;
-- A contact changes its client's search row (and, when it moves, its old client's too).
CREATE TRIGGER contacts_search_insert AFTER INSERT ON contacts BEGIN
  INSERT OR IGNORE INTO client_search_stale SELECT rowid FROM clients WHERE id = NEW.client_id;
END;
CREATE TRIGGER contacts_search_update AFTER UPDATE ON contacts BEGIN
  INSERT OR IGNORE INTO client_search_stale SELECT rowid FROM clients WHERE id IN (OLD.client_id, NEW.client_id);
END;
CREATE TRIGGER contacts_search_delete AFTER DELETE ON contacts BEGIN
  INSERT OR IGNORE INTO client_search_stale SELECT rowid FROM clients WHERE id = OLD.client_id;
END;
